import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inDays, newAgency, shared, signedInPage } from './harness.ts';
import { button, field, fillPassenger, named, readyToBook, search, shownPnr } from './steps.ts';

const server = shared();

/** Everything the page keeps in localStorage and sessionStorage, as text. */
const stored = (page: Page): Promise<string> =>
  page.evaluate('JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])');
const EMPTY = JSON.stringify([[], []]);

/** What readyToBook types of the passenger and contact (steps.ts). */
const PERSONAL = /Hopper|1976-12-09|grace@example\.com|7700900456/;

describe.concurrent('browser: nothing personal stays in storage', () => {
  it('signing out in one tab drops the drafts of every tab, and the other tab leaves its form', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page: first, context } = watched;
    await first.goto(`${server.url}/search`);
    await readyToBook(first);
    const second = await context.newPage();
    await second.goto(`${server.url}/search`);
    await button((await search(second)).first(), 'Select').click();
    await second.waitForURL((url) => url.pathname === '/book');
    await fillPassenger(second, 1, { first: 'Katherine', last: 'Johnson' });
    expect(await stored(first)).toMatch(PERSONAL);
    expect(await stored(second)).toContain('Johnson');

    await button(first, 'Sign out').click();

    await first.waitForURL((url) => url.pathname === '/sign-in');
    await second.waitForURL((url) => url.pathname === '/sign-in');
    await field(second, 'E-mail or phone').waitFor();
    expect(await second.getByRole('group', { name: named('Passenger 1') }).count()).toBe(0);
    expect(await stored(first)).toBe(EMPTY);
    expect(await stored(second)).toBe(EMPTY);
  });

  for (const action of ['Book', 'Hold'])
    it(`leaves no passenger or contact in storage once ${action} has made the booking, even after a reload`, async () => {
      const admin = await newAgency(server);
      await using watched = await signedInPage(server, admin);
      const { page, errors } = watched;
      await page.goto(`${server.url}/search`);
      // Far enough ahead for a hold to be offered.
      await readyToBook(page, { date: inDays(14) });
      expect(await stored(page)).toMatch(PERSONAL);

      await button(page, action).click();
      const pnr = await shownPnr(page);
      await page.getByText(/Grace Hopper/).waitFor();
      expect(await stored(page)).not.toMatch(PERSONAL);

      await page.reload();
      expect(await shownPnr(page)).toBe(pnr);
      await page.getByText(/Grace Hopper/).waitFor();
      expect(await stored(page)).not.toMatch(PERSONAL);
      expect(errors).toEqual([]);
    });
});
