import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Listening,
  type LocalServer,
  startListening,
  startLocalServer,
} from '../helpers/local-server.ts';
import { expectAccessible, newAgency, signedInPage } from './harness.ts';
import { bookingByPnr, button, openBooking, readyToBook, shownPnr, showsStatus } from './steps.ts';

let standIn: Listening;
let server: LocalServer;

// Its own npm start selling from Duffel, here the local stand-in (as test/e2e/duffel.test.ts does).
beforeAll(async () => {
  standIn = await startListening(['infra/local/duffel-stand-in.ts', '--port', '0']);
  server = await startLocalServer(undefined, {
    SUPPLIER: 'duffel',
    DUFFEL_ACCESS_TOKEN: 'duffel_test_browserStandInToken0123456789',
    DUFFEL_API_URL: standIn.url,
  });
});

afterAll(async () => {
  await server?.stop();
  await standIn?.stop();
});

describe('browser: selling from Duffel (the stand-in)', () => {
  it('searches, books and cancels with the supplier’s refund', async () => {
    const admin = await newAgency(server);
    const { page, errors } = await signedInPage(server, admin);
    await page.goto(`${server.url}/search`);
    await readyToBook(page);

    await button(page, 'Book').click();
    const pnr = await shownPnr(page);
    await openBooking(page, server, admin, pnr);
    await showsStatus(page, 'CONFIRMED');
    await expectAccessible(page, 'duffel booking');
    await button(page, 'Cancel booking').click();
    await button(page.getByRole('dialog'), 'Cancel and refund').click();
    await showsStatus(page, 'CANCELLED');

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CANCELLED',
      supplier: { name: 'duffel' },
      refund: { currency: 'GBP' },
    });
    expect(errors).toEqual([]);
  });
});
