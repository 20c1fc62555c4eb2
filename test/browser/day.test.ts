import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { readOutbox } from '../helpers/outbox.ts';
import {
  addAgent,
  api,
  eventually,
  expectAccessible,
  inDays,
  newAgency,
  newPage,
  type Served,
  type SignedIn,
  shared,
  signedInPage,
} from './harness.ts';
import { amountText, button, field, named, showsStatus, tabAndType, tabTo, typeTraveller } from './steps.ts';

const server = shared();

/**
 * The steps of the day the other walks do not already take by keyboard alone (docs/console.md,
 * "A full day at the console"): search and book (keyboard-and-price), find by surname, notes, print
 * and the Holds view (workspace) are walked there.
 */

/** Holds the first direct LHR→JFK offer in 14 days through the API, in `who`'s agency. */
async function holdFor(who: SignedIn, at: Served) {
  const searched = await api(at, who, '/api/flights/search', {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: inDays(14),
    adults: 1,
    max_connections: 0,
  });
  const offer = searched.body.data[0];
  const held = await api(at, who, '/api/flights/booking/create', {
    flight_id: offer.id,
    flight_details: offer,
    total_price: offer.total_price,
    currency: offer.currency,
    hold: true,
    ...exampleTraveller,
  });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  return held.body.data as { booking_id: string; pnr: string; total_price: number };
}

/** Presses Enter on the control Tab brings the focus to. */
async function press(page: Page, target: Parameters<typeof tabTo>[1]): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

/** The code step by keyboard: the focus waits in Code once the code is sent; typed, then Enter. */
async function enterCode(page: Page, to: string, sentBefore: number): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.id === 'code');
  const code = await eventually(
    async () => (await readOutbox(server.dataDir)).slice(sentBefore).find((entry) => entry.to === to)?.code,
  );
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname !== '/sign-in');
}

/**
 * A draft on Book when the session ends (another tab, signed in as `who`): signed in again by keyboard,
 * back on Book with the draft as typed.
 */
async function resumesWithDraft(who: SignedIn): Promise<void> {
  await using watched = await signedInPage(server, who);
  const { page, errors, settled } = watched;
  await page.goto(`${server.url}/search`);
  await tabAndType(page, page.getByRole('combobox', { name: named('From') }), 'LHR');
  await page.getByRole('option', { name: /\bLHR\b/ }).waitFor();
  await page.keyboard.press('Enter');
  await tabAndType(page, page.getByRole('combobox', { name: named('To') }), 'JFK');
  await page.getByRole('option', { name: /\bJFK\b/ }).waitFor();
  await page.keyboard.press('Enter');
  await tabAndType(page, field(page, 'Departure date'), inDays(12));
  await press(page, button(page, 'Search'));
  await button(page, 'Select').first().waitFor();
  await press(page, button(page, 'Select').first());
  await page.waitForURL((url) => url.pathname === '/book');
  await typeTraveller(page, {
    title: 'Ms',
    first: 'Katherine',
    last: 'Johnson',
    gender: 'F',
    born: '1968-08-26',
    email: 'katherine@example.com',
    phone: '+44 7700 900 321',
  });
  const passenger = page.getByRole('group', { name: named('Passenger 1') });
  await settled();

  const ended = await api(server, who, '/api/auth/logout', { everywhere: true });
  expect(ended.status).toBe(200);
  // Tokens issued before the next whole second are refused: the new sign-in waits for it.
  const validAfter = (Math.floor(Date.now() / 1000) + 1) * 1000;
  await press(page, button(page, 'Book'));
  await page.getByText('Your session ended — sign in to continue where you left off').waitFor();
  expect(await field(page, 'E-mail or phone').inputValue()).toBe(who.identifier);
  await page.waitForFunction((at) => Date.now() >= at, validAfter, { polling: 50 });
  const sent = (await readOutbox(server.dataDir)).length;
  await press(page, button(page, 'Send code'));
  await enterCode(page, who.identifier, sent);
  await page.waitForURL((url) => url.pathname === '/book');
  expect(await field(passenger, 'First name').inputValue()).toBe('Katherine');
  expect(await field(passenger, 'Last name').inputValue()).toBe('Johnson');
  expect(await field(passenger, 'Date of birth').inputValue()).toBe('1968-08-26');
  expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
}

// Each walk crosses six to ten screens: 24.6–30.8 s of a 60 s timeout in the loaded check (two busy
// loops beside npm start, load 7–9), where the slowest test must stay under half its timeout.
describe.concurrent('browser: a day at the console by keyboard alone', { timeout: 120_000 }, () => {
  it('signs in with a phone typed with spaces, confirms a hold at its amount, resends it elsewhere, changes a role after asking', async () => {
    const admin = await newAgency(server);
    const phone = `+447400${String(randomInt(1_000_000)).padStart(6, '0')}`;
    const created = await api(server, admin, '/api/agency/agents/create', {
      identifier: phone,
      type: 'PHONE',
      name: 'Dorothy Vaughan',
      role: 'ADMIN',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const colleague = await addAgent(server, admin, { name: 'Christine Darden' });
    const held = await holdFor(admin, server);
    await using watched = await newPage();
    const { page, errors } = watched;

    // Sign in with the phone as people write it: `+44 (0)7700-9xx.xxx`, spaces, brackets, dash, dot.
    await page.goto(`${server.url}/sign-in`);
    const typed = `${phone.slice(0, 3)} (0)${phone.slice(3, 7)}-${phone.slice(7, 10)}.${phone.slice(10)}`;
    const sent = (await readOutbox(server.dataDir)).length;
    await tabAndType(page, field(page, 'E-mail or phone'), typed);
    await page.keyboard.press('Enter');
    await enterCode(page, phone, sent);

    // The hold, from the Bookings screen: Confirm says what will be paid; times on the agent's clock.
    await press(page, page.getByRole('link', { name: named('Bookings') }).first());
    await press(page, page.getByRole('link', { name: held.pnr }));
    await showsStatus(page, 'HELD');
    const confirm = button(page, 'Confirm');
    expect(await confirm.textContent()).toMatch(amountText(held.total_price));
    await page.getByText(/Confirm by .*\(your time\)/).waitFor();
    await page.getByText(/Booked .*\(your time\)/).waitFor();

    // Resend the itinerary to another address than the contact's.
    await tabTo(page, field(page, 'Send itinerary to'));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('frontdesk@example.com');
    await press(page, button(page, 'Resend itinerary'));
    await page.getByRole('status').filter({ hasText: 'Itinerary sent to frontdesk@example.com' }).waitFor();
    const resent = await api(server, admin, '/api/flights/booking/get', { booking_id: held.booking_id });
    expect(resent.body.data.notes.map((note: { text: string }) => note.text)).toContainEqual(
      expect.stringContaining('frontdesk@example.com'),
    );

    await press(page, confirm);
    await showsStatus(page, 'CONFIRMED');

    // The booking and its print view on a phone: no sideways scrolling, axe clean.
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = () => page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(await sideways()).toBe(false);
    await expectAccessible(page, 'confirmed booking at 390 px');
    await press(page, button(page, 'Print itinerary'));
    await page.getByRole('heading', { name: new RegExp(`Your itinerary: ${held.pnr}`) }).waitFor();
    expect(await sideways()).toBe(false);
    await expectAccessible(page, 'print view at 390 px');
    await page.setViewportSize({ width: 1366, height: 768 });

    // A role change asks first: the arrow key only chooses; Change role, then the dialog, changes.
    await press(page, page.getByRole('link', { name: named('Agents') }));
    const role = page.getByRole('combobox', { name: 'Christine Darden: role' });
    await tabTo(page, role);
    await page.keyboard.press('ArrowDown');
    await press(page, button(page, 'Change role of Christine Darden'));
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(/Christine Darden/)
      .first()
      .waitFor();
    await press(page, button(dialog, 'Make Christine Darden an admin'));
    await page
      .getByRole('status')
      .filter({ hasText: /Christine Darden is now an admin/i })
      .waitFor();
    const agents = await api(server, admin, '/api/agency/agents/list', {});
    expect(agents.body.data).toContainEqual(
      expect.objectContaining({ id: colleague.agent.id, role: 'ADMIN' }),
    );

    expect(errors).toEqual([]);
  });

  it('resumes a session that ended mid-form by keyboard, with the draft kept', async () => {
    await resumesWithDraft(await newAgency(server));
  });
});
