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

/** The airline's terms for cancelling `orderId` from now on, through the stand-in's switch. */
async function cancellationTerms(orderId: string, terms: Record<string, unknown>) {
  const answer = await fetch(`${standIn.url}/_stand-in/orders/cancellation-terms`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ order_id: orderId, terms }),
  });
  expect(answer.status).toBe(204);
}

describe('browser: selling from Duffel (the stand-in)', () => {
  it('searches, books and cancels with the supplier’s refund', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    await page.goto(`${server.url}/search`);
    await readyToBook(page);

    await button(page, 'Book').click();
    const pnr = await shownPnr(page);
    await openBooking(page, server, admin, pnr);
    await showsStatus(page, 'CONFIRMED');
    await expectAccessible(page, 'duffel booking');

    // The airline does not state the refund yet: said so, and the agent can still cancel (not here).
    const orderId = (await bookingByPnr(server, admin, pnr)).supplier.order_id;
    await cancellationTerms(orderId, { refund_amount: null, refund_currency: null, refund_to: null });
    await button(page, 'Cancel booking').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The airline has not stated the refund yet').waitFor();
    await expect(button(dialog, 'Cancel and refund').isEnabled()).resolves.toBe(true);
    await button(dialog, 'Keep booking').click();

    // Refunded as airline credits: where the money goes, and each credit with its code.
    await cancellationTerms(orderId, { refund_to: 'airline_credits' });
    await button(page, 'Cancel booking').click();
    await dialog.getByText('The refund is given as airline credits.').waitFor();
    await dialog
      .getByText(/Airline credit: .*, code \w+/)
      .first()
      .waitFor();
    await expectAccessible(page, 'duffel cancel dialog');
    await button(dialog, 'Cancel and refund').click();
    await showsStatus(page, 'CANCELLED');
    // The cancelled booking says the refund as stated: where it went and the credits.
    await page.getByText('The refund is given as airline credits.').waitFor();
    await page
      .getByText(/^Airline credit: .*, code \w+/)
      .first()
      .waitFor();

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CANCELLED',
      supplier: { name: 'duffel' },
      refund: { currency: 'GBP' },
      refund_to: 'airline_credits',
    });
    expect(errors).toEqual([]);
  });
});
