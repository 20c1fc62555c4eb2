import { describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { duffelMode, freshEachTest } from '#test/helpers/duffel.ts';
import { testContext } from '#test/helpers/test-context.ts';
import type { Wire } from '../../../infra/local/duffel-stand-in.ts';
import type { CancellationTerms } from '../../../infra/local/duffel-stand-in-data.ts';

/**
 * Every field of Duffel's order cancellation that `@duffel/api` or Duffel's reference types as nullable,
 * and that we read, answered null by the stand-in: the refund quote and the cancel answer what the
 * contract says for it (docs/API.md §4.3: `expires_at` null when the supplier states none, `refund`
 * null — never 0 — when it does not know it, `penalty_unknown` when the penalty cannot be stated in
 * the refund's currency), never a 5xx. The table of fields is in docs/decisions.md, "Duffel's nulls".
 */
const duffel = await duffelMode();
const { standIn } = duffel;

const each = freshEachTest(standIn, 'dnullc');

/** A booking of the first offer (a hold with `hold`). */
const booked = async (hold = false) => {
  const departure = new Date(Date.UTC(2027, 4, 1) + each.day * 86_400_000).toISOString().slice(0, 10);
  const found = await duffel.search(each.session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: departure,
  });
  expect(found.status).toBe(200);
  const body = bookingBody((found.body.data as Json[])[0]);
  const answer = await duffel.book(each.session, hold ? { ...body, hold } : body);
  expect(answer.status).toBe(201);
  return answer.body.data;
};
const quoteOf = (booking: Json) => duffel.refundQuote(each.session, { booking_id: booking.booking_id });
const getOf = async (booking: Json) =>
  (await duffel.get(each.session, { booking_id: booking.booking_id })).body.data;
/** Duffel's quotes (and confirmations) of cancellation answer `change`d. */
const cancellations = (change: (cancellation: Wire) => void) => {
  const reshape = (data: Wire) => {
    change(data);
    return data;
  };
  standIn.reshape('order_cancellations.create', reshape);
  standIn.reshape('order_cancellations.confirm', reshape);
};
const confirmedAtDuffel = (booking: Json) =>
  Boolean(standIn.orders.get(booking.supplier.order_id)?.cancelled_at);
/** The stand-in refunds 90 % of the price. */
const refundOf = (booking: Json) => Math.floor(booking.total_price * 90) / 100;
const inSeconds = (epochMs: number) => new Date(epochMs).toISOString().replace('.000', '');

describe('duffel mode: a cancellation quote without expires_at (nullable)', () => {
  it('quotes expires_at null with the refund, never 5xx', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.expires_at = null;
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual({
      booking_id: booking.booking_id,
      refund: { amount: refundOf(booking), currency: 'GBP' },
      penalty: { amount: Math.round((booking.total_price - refundOf(booking)) * 100) / 100, currency: 'GBP' },
      expires_at: null,
      refund_to: 'balance',
      airline_credits: [],
    });
  });

  it('answers a cancel at a stale refund 409 REFUND_CHANGED with the fresh quote, cancelling nothing', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.expires_at = null;
    });
    const stale = { amount: booking.total_price, currency: 'GBP' };

    const answer = await duffel.cancel(each.session, { booking_id: booking.booking_id, refund: stale });

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'REFUND_CHANGED',
      details: { previous_refund: stale, quote: { expires_at: null } },
    });
    expect(confirmedAtDuffel(booking)).toBe(false);
    expect(await getOf(booking)).toEqual(booking);
  });

  it('cancels at the quoted refund', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.expires_at = null;
    });
    const { refund } = (await quoteOf(booking)).body.data;

    const answer = await duffel.cancel(each.session, { booking_id: booking.booking_id, refund });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund });
  });
});

describe('duffel mode: a cancellation quote without refund_amount (nullable)', () => {
  it('quotes refund null (never 0), penalty null and penalty_unknown', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_amount = null;
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual({
      booking_id: booking.booking_id,
      refund: null,
      penalty: null,
      penalty_unknown: true,
      expires_at: inSeconds(testContext.clock.now() + 5 * 60_000),
      refund_to: 'balance',
      airline_credits: [],
    });
  });

  it('answers a cancel with any expected refund 409 REFUND_CHANGED (refund null), cancelling nothing', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_amount = null;
    });
    const expected = { amount: 0, currency: 'GBP' };

    const answer = await duffel.cancel(each.session, { booking_id: booking.booking_id, refund: expected });

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'REFUND_CHANGED',
      details: { previous_refund: expected, refund: null, quote: { refund: null, penalty_unknown: true } },
    });
    expect(confirmedAtDuffel(booking)).toBe(false);
  });

  it('cancels without an expected refund, recording the refund as null (never 0)', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_amount = null;
    });

    const answer = await duffel.cancel(each.session, { booking_id: booking.booking_id });

    expect(answer.status).toBe(200);
    expect(answer.body.data.status).toBe('CANCELLED');
    // Recorded as unknown (null), never 0; where it went as Duffel says.
    expect(answer.body.data).toMatchObject({ refund: null, refund_to: 'balance', airline_credits: [] });
    expect(await getOf(booking)).toEqual(answer.body.data);
    expect(confirmedAtDuffel(booking)).toBe(true);
  });
});

describe('duffel mode: a hold’s cancellation without refund_amount (nullable)', () => {
  it('cancels the hold with a refund of 0: nothing was paid', async () => {
    const hold = await booked(true);
    cancellations((c) => {
      c.refund_amount = null;
    });

    const answer = await duffel.cancel(each.session, { booking_id: hold.booking_id });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund: { amount: 0, currency: 'GBP' } });
  });
});

describe('duffel mode: a cancellation quote without refund_currency (nullable)', () => {
  it('quotes refund null for an amount without its currency', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_currency = null;
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({ refund: null, penalty: null, penalty_unknown: true });
  });

  it('quotes a stated zero without a currency as 0 in the booking’s currency, the price kept', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_currency = null;
      c.refund_amount = '0.00';
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({
      refund: { amount: 0, currency: 'GBP' },
      penalty: { amount: booking.total_price, currency: 'GBP' },
    });
    expect(quote.body.data).not.toHaveProperty('penalty_unknown');
  });
});

describe('duffel mode: a refund in another currency than the price', () => {
  it('quotes the refund in its currency, and the penalty as unknown (never as none)', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_currency = 'USD';
      c.refund_amount = '100.00';
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({
      refund: { amount: 100, currency: 'USD' },
      penalty: null,
      penalty_unknown: true,
    });
  });

  it('cancels at that quoted refund and records it', async () => {
    const booking = await booked();
    cancellations((c) => {
      c.refund_currency = 'USD';
      c.refund_amount = '100.00';
    });

    const answer = await duffel.cancel(each.session, {
      booking_id: booking.booking_id,
      refund: { amount: 100, currency: 'USD' },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund: { amount: 100, currency: 'USD' } });
  });
});

describe('duffel mode: a cancelled order without its cancellation (nullable)', () => {
  it('settles a cancel whose answer was lost at the refund of the quote it confirmed', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'timeout-after' });
    standIn.reshape('orders.get', (order) => ({ ...order, cancellation: null }));

    const answer = await duffel.cancel(each.session, { booking_id: booking.booking_id });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 'CANCELLED',
      refund: { amount: refundOf(booking), currency: 'GBP' },
    });
  });

  it('settles a cancel retried after a lost answer as CANCELLED with the refund null (never 0)', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'error-after', status: 502 });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2);
    standIn.reshape('orders.get', (order) => ({ ...order, cancellation: null }));

    const lost = await duffel.cancel(each.session, { booking_id: booking.booking_id });
    const retried = await duffel.cancel(each.session, { booking_id: booking.booking_id });

    expect(lost.status).toBe(503);
    expect(retried.status).toBe(200);
    expect(retried.body.data.status).toBe('CANCELLED');
    // The order says nothing of its cancellation: nothing known is recorded as known.
    expect(retried.body.data).toMatchObject({ refund: null, refund_to: null, airline_credits: [] });
    expect(await getOf(booking)).toEqual(retried.body.data);
  });

  it('the sweep settles a cancel whose answer was lost as CANCELLED with the refund null (never 0)', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'error-after', status: 502 });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2);
    standIn.reshape('orders.get', (order) => ({ ...order, cancellation: null }));
    expect((await duffel.cancel(each.session, { booking_id: booking.booking_id })).status).toBe(503);

    each.advance(2 * 60_000);
    await duffel.settleCalls();
    const swept = await getOf(booking);

    expect(swept.status).toBe('CANCELLED');
    expect(swept).toMatchObject({ refund: null, refund_to: null, airline_credits: [] });
  });
});

/** The airline's terms for cancelling `booking`'s order (Duffel's fields, nulls as Duffel sends them). */
const terms = (booking: Json, stated: CancellationTerms) =>
  standIn.cancellationTerms(booking.supplier.order_id, stated);

describe('duffel mode: where the refund goes (refund_to)', () => {
  it.each(['balance', 'card', 'voucher', 'arc_bsp_cash'])(
    'quotes and records refund_to %s as Duffel states it',
    async (to) => {
      const booking = await booked();
      terms(booking, { refund_to: to });

      const quote = await quoteOf(booking);
      const cancelled = await duffel.cancel(each.session, {
        booking_id: booking.booking_id,
        refund: quote.body.data.refund,
      });

      expect(quote.body.data).toMatchObject({ refund_to: to, airline_credits: [] });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund_to: to, airline_credits: [] });
      expect(await getOf(booking)).toEqual(cancelled.body.data);
    },
  );

  it.each([
    ['a destination Duffel may add later', 'original_form_of_payment'],
    ['null', null],
  ])('answers refund_to null for %s, the refund still as stated', async (_what, to) => {
    const booking = await booked();
    terms(booking, { refund_to: to });

    const quote = await quoteOf(booking);
    const cancelled = await duffel.cancel(each.session, { booking_id: booking.booking_id });

    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({
      refund: { amount: refundOf(booking), currency: 'GBP' },
      refund_to: null,
      airline_credits: [],
    });
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund_to: null });
  });

  it('records a hold’s cancel as awaiting_payment, with a refund of 0', async () => {
    const hold = await booked(true);

    const quote = await quoteOf(hold);
    const cancelled = await duffel.cancel(each.session, { booking_id: hold.booking_id });

    expect(quote.body.data).toMatchObject({
      refund: { amount: 0, currency: 'GBP' },
      refund_to: 'awaiting_payment',
    });
    expect(cancelled.body.data).toMatchObject({
      status: 'CANCELLED',
      refund: { amount: 0, currency: 'GBP' },
      refund_to: 'awaiting_payment',
      airline_credits: [],
    });
  });
});

describe('duffel mode: airline credits', () => {
  it('quotes and records the credits a refund to airline_credits gives, one per passenger with its code', async () => {
    const booking = await booked();
    terms(booking, { refund_to: 'airline_credits' });

    const quote = (await quoteOf(booking)).body.data;
    const cancelled = await duffel.cancel(each.session, {
      booking_id: booking.booking_id,
      refund: quote.refund,
    });

    expect(quote).toMatchObject({
      refund: { amount: refundOf(booking), currency: 'GBP' },
      refund_to: 'airline_credits',
    });
    expect(quote.airline_credits).toEqual([
      {
        code: expect.stringMatching(/^\d{13}$/),
        amount: refundOf(booking),
        currency: 'GBP',
        expires_at: null,
      },
    ]);
    expect(cancelled.body.data).toMatchObject({
      status: 'CANCELLED',
      refund_to: 'airline_credits',
      airline_credits: quote.airline_credits,
    });
    expect(await getOf(booking)).toEqual(cancelled.body.data);
  });

  it('answers a credit without its code (not issued yet) with code null, and an expiry where Duffel states one', async () => {
    const booking = await booked();
    const credit = { credit_amount: '40.00', credit_currency: 'GBP', credit_name: 'Voucher' };
    terms(booking, {
      refund_to: 'airline_credits',
      airline_credits: [
        { ...credit, credit_code: null },
        { ...credit, credit_code: '1251234567890', expires_at: '2027-12-01T15:48:11.642Z' },
      ],
    });

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data.airline_credits).toEqual([
      { code: null, amount: 40, currency: 'GBP', expires_at: null },
      { code: '1251234567890', amount: 40, currency: 'GBP', expires_at: '2027-12-01T15:48:11Z' },
    ]);
  });

  it('leaves out a credit whose amount or currency cannot be read, and reads a null list as none', async () => {
    const booking = await booked();
    terms(booking, {
      refund_to: 'airline_credits',
      airline_credits: [
        { credit_code: '1', credit_amount: 'lots', credit_currency: 'GBP' },
        { credit_code: '2', credit_amount: '10.00' },
        { credit_code: '3', credit_amount: '10.00', credit_currency: 'GBP' },
      ],
    });
    const other = await booked();
    terms(other, { refund_to: 'airline_credits', airline_credits: null });

    const quote = await quoteOf(booking);
    const none = await quoteOf(other);

    expect(quote.body.data.airline_credits).toEqual([
      { code: '3', amount: 10, currency: 'GBP', expires_at: null },
    ]);
    expect(none.status).toBe(200);
    expect(none.body.data.airline_credits).toEqual([]);
  });
});

describe('duffel mode: a refund of nothing in another currency than the price', () => {
  it('quotes the whole price kept: nothing comes back in any currency', async () => {
    const booking = await booked();
    terms(booking, { refund_amount: '0.00', refund_currency: 'USD' });

    const quote = await quoteOf(booking);

    expect(quote.body.data).toMatchObject({
      refund: { amount: 0, currency: 'USD' },
      penalty: { amount: booking.total_price, currency: 'GBP' },
    });
    expect(quote.body.data).not.toHaveProperty('penalty_unknown');
  });
});
