import { describe, expect, it } from 'vitest';
import { readOutbox } from '../helpers/outbox.ts';
import {
  api,
  eventually,
  expectAccessible,
  freshSession,
  newAgency,
  shared,
  signedInPage,
} from './harness.ts';
import { bookingByPnr, button, choose, field, fillContact, named, search, shownPnr } from './steps.ts';

const server = shared();

describe('browser: a session that ends mid-form', () => {
  it('returns to sign-in and, signed in again, to the half-filled form, which then books', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, errors, settled } = watched;
    await page.goto(`${server.url}/search`);
    const found = await search(page);
    await button(found.first(), 'Select').click();
    await page.waitForURL((url) => url.pathname === '/book');
    const block = page.getByRole('group', { name: named('Passenger 1') });
    await field(block, 'First name').fill('Katherine');
    await field(block, 'Last name').fill('Johnson');
    await choose(block, 'Title', /^(ms|ms\.)$/i);
    await choose(block, 'Gender', /^(f|female)$/i);
    await field(block, 'Date of birth').fill('1968-08-26');
    await fillContact(page);
    // The screens' own questions in the background (the time zones of the offer's airports) are
    // answered first: one answered 401 after the logout below would send the page to sign-in before
    // the Book click this test is about (seen once on a loaded machine).
    await settled();

    const ended = await api(server, admin, '/api/auth/logout', { everywhere: true });
    expect(ended.status).toBe(200);
    // Logout everywhere refuses every token issued before the next whole second (valid_after): a
    // sign-in within the same second would be refused too, so the new one waits for that second.
    const validAfter = (Math.floor(Date.now() / 1000) + 1) * 1000;
    await button(page, 'Book').click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    // Said, with the identifier filled in; once the code is sent, the focus waits in Code.
    await page.getByText('Your session ended — sign in to continue where you left off').waitFor();
    expect(await page.getByLabel('E-mail or phone').inputValue()).toBe(admin.identifier);
    await expectAccessible(page, 'sign-in after a session ended');
    await page.waitForFunction((at) => Date.now() >= at, validAfter, { polling: 50 });
    const sent = (await readOutbox(server.dataDir)).length;
    await button(page, 'Send code').click();
    await page.waitForFunction(() => document.activeElement?.id === 'code');
    const code = await eventually(
      async () => (await readOutbox(server.dataDir)).slice(sent).find((e) => e.to === admin.identifier)?.code,
    );
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');

    await page.waitForURL((url) => url.pathname === '/book');
    expect(await field(block, 'First name').inputValue()).toBe('Katherine');
    expect(await field(block, 'Last name').inputValue()).toBe('Johnson');
    expect(await field(block, 'Date of birth').inputValue()).toBe('1968-08-26');
    await button(page, 'Book').click();
    const pnr = await shownPnr(page);

    const booked = await bookingByPnr(server, await freshSession(server, admin), pnr);
    expect(booked.passengers[0]).toMatchObject({ first_name: 'Katherine', last_name: 'Johnson' });
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
  });
});

describe('browser: a working day without a code every hour', () => {
  it('refreshes the session with cookie_only near its end while the agent works, and revokes the old token', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, context, errors } = watched;
    // The page's own clock, so the token's last 15 minutes come without waiting 45 of them.
    await page.clock.install();
    const checks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/session')) checks.push(request.frame().url());
    });
    await page.goto(`${server.url}/bookings`);
    await button(page, 'Sign out').waitFor();
    // One session check: the boot script's, which the console's script takes instead of asking again.
    expect(checks).toHaveLength(1);
    const refreshing = page.waitForRequest((request) => request.url().endsWith('/api/auth/refresh'));
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/auth/refresh'));

    await page.clock.fastForward('46:00');

    expect((await refreshing).postDataJSON()).toEqual({ cookie_only: true });
    const answer = await refreshed;
    expect(answer.status()).toBe(200);
    expect(Object.keys((await answer.json()).data).sort()).toEqual(['agent', 'expires_at', 'expires_in']);
    const cookie = await eventually(async () => {
      const value = (await context.cookies()).find((c) => c.name === '__Host-session')?.value;
      return value && value !== admin.token ? value : undefined;
    });
    expect((await api(server, admin, '/api/auth/session', {})).status).toBe(401);
    expect((await api(server, { ...admin, token: cookie }, '/api/auth/session', {})).status).toBe(200);
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(errors).toEqual([]);
  });
});
