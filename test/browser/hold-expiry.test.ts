import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../helpers/local-server.ts';
import { freshSession, newAgency, signedInPage } from './harness.ts';
import { bookingByPnr, button, openBooking, readyToBook, shownPnr, showsStatus } from './steps.ts';

let server: LocalServer;

// Its own npm start with holds of 6 seconds (HOLD_MINUTES=0.1), so a lapse is seen at once.
beforeAll(async () => {
  server = await startLocalServer(undefined, { HOLD_MINUTES: '0.1' });
});

afterAll(async () => {
  await server?.stop();
});

describe('browser: a hold that lapses', () => {
  it('counts the deadline down and shows the hold expired, with Confirm no longer offered', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    await readyToBook(page);

    await button(page, 'Hold').click();
    const pnr = await shownPnr(page);
    await openBooking(page, server, admin, pnr);
    await showsStatus(page, 'HELD');
    await button(page, 'Confirm').waitFor();
    await showsStatus(page, 'EXPIRED');

    expect(await button(page, 'Confirm').count()).toBe(0);
    expect(await bookingByPnr(server, await freshSession(server, admin), pnr)).toMatchObject({
      status: 'EXPIRED',
    });
  });
});
