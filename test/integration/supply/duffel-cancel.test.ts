import { beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { duffelMode } from '#test/helpers/duffel.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

/**
 * Cancel and confirm are exactly once across the outside call (docs/API.md §4.5): when Duffel's answer
 * to a cancellation or a payment is lost — or the function dies after Duffel acted — the service asks
 * Duffel (in the request, and the sweep within 5 minutes), never sends it again, and never leaves a
 * cancelled order's booking CONFIRMED or a paid hold HELD. Parallel cancels or confirms of one booking
 * all answer its final state.
 */
const duffel = await duffelMode();
const { standIn } = duffel;
/** Duffel as slow as it may be live: calls wait up to 6 s (the default is 4 s). */
const slow = await duffelMode({}, { DUFFEL_TIMEOUT_MS: '6000' });
const HOUR = 3_600_000;

let session: TestSession;
let agencyId: string;
let advance: (ms: number) => void;
let day = 0;
beforeEach(async () => {
  day += 1;
  // An hour later for every test: Duffel's rate-limit windows move on between tests.
  advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0) + day * HOUR);
  agencyId = `dcancel-${Math.random().toString(36).slice(2, 8)}`;
  session = await signIn({ agencyId });
});

const firstOffer = async () => {
  const answer = await duffel.search(session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: `2027-03-${String(day).padStart(2, '0')}`,
  });
  expect(answer.status).toBe(200);
  return (answer.body.data as Json[])[0];
};
const booked = async () => {
  const answer = await duffel.book(session, bookingBody(await firstOffer()));
  expect(answer.status).toBe(201);
  return answer.body.data;
};
const held = async () => {
  const answer = await duffel.book(session, { ...bookingBody(await firstOffer()), hold: true });
  expect(answer.status).toBe(201);
  return answer.body.data;
};
const cancelOf = (booking: Json) => duffel.cancel(session, { booking_id: booking.booking_id });
const confirmOf = (booking: Json) =>
  duffel.confirm(session, {
    booking_id: booking.booking_id,
    total_price: booking.total_price,
    currency: booking.currency,
  });
const getOf = async (booking: Json) =>
  (await duffel.get(session, { booking_id: booking.booking_id })).body.data;
const confirmations = (orderId: string) =>
  standIn.requests.filter(
    (r) =>
      /^\/air\/order_cancellations\/[\w-]+\/actions\/confirm$/.test(r.path) &&
      standIn.orders.get(orderId)?.cancellation?.id === r.path.split('/')[3],
  );
const cancellationConfirms = () => standIn.requests.filter((r) => r.path.endsWith('/actions/confirm')).length;
const payments = (orderId: string) =>
  standIn.requests.filter((r) => r.path === '/air/payments' && (r.body as Json)?.data?.order_id === orderId);
/** Fails the table's next write of `command` as a function killed at that point would leave it. */
function killAtNext(command: 'TransactWriteItemsCommand' | 'UpdateItemCommand', skip = 0) {
  let seen = 0;
  testContext.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === command && seen++ === skip) {
        testContext.db.middlewareStack.remove('killAtNext');
        throw Object.assign(new Error('killed'), {
          name: 'InternalServerError',
          $fault: 'server',
          $metadata: {},
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'killAtNext' },
  );
  return () => testContext.db.middlewareStack.remove('killAtNext');
}
const refundOf = (booking: Json) => ({
  amount: Math.floor(booking.total_price * 90) / 100,
  currency: booking.currency,
});

describe('duffel mode: a cancellation whose answer is lost', () => {
  it('asks Duffel in the request: 200 CANCELLED with the refund, one confirmation sent', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'timeout-after' });

    const answer = await cancelOf(booking);
    const read = await getOf(booking);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund: refundOf(booking), version: 2 });
    expect(read).toEqual(answer.body.data);
    expect(confirmations(booking.supplier.order_id)).toHaveLength(1);
  });

  it('when Duffel cannot be asked either: 503, then a retry asks first and never cancels twice', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'error-after', status: 502 });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2);
    const before = cancellationConfirms();

    const lost = await cancelOf(booking);
    const retried = await cancelOf(booking);

    expect(lost.status).toBe(503);
    expect(lost.headers['Retry-After']).toEqual(expect.any(String));
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'CANCELLED', refund: refundOf(booking), version: 2 });
    expect(cancellationConfirms() - before).toBe(1);
  });

  it('the sweep settles it CANCELLED within 5 minutes when nobody retries', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.confirm', { kind: 'timeout-after' });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2);
    expect((await cancelOf(booking)).status).toBe(503);

    advance(2 * 60_000);
    await duffel.settleCalls();
    const swept = await getOf(booking);

    expect(swept).toMatchObject({
      status: 'CANCELLED',
      refund: refundOf(booking),
      cancelled_by: { id: session.agent.id },
      version: 2,
    });
    expect(confirmations(booking.supplier.order_id)).toHaveLength(1);
  });

  it('a function killed after Duffel cancelled: the sweep settles it CANCELLED', async () => {
    const booking = await booked();
    const undo = killAtNext('TransactWriteItemsCommand');
    let answer: Json;
    try {
      answer = await cancelOf(booking);
    } finally {
      undo();
    }
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(standIn.orders.get(booking.supplier.order_id)?.cancelled_at).toEqual(expect.any(String));
    const meanwhile = await cancelOf(booking);

    advance(2 * 60_000);
    await duffel.settleCalls();

    expect(meanwhile.body.data?.status ?? meanwhile.body.error.code).not.toBe('SUPPLIER_REJECTED');
    expect(await getOf(booking)).toMatchObject({
      status: 'CANCELLED',
      refund: refundOf(booking),
      version: 2,
    });
    expect(cancellationConfirms()).toBeGreaterThan(0);
    expect(confirmations(booking.supplier.order_id)).toHaveLength(1);
  });

  it('a function killed before Duffel was asked: the sweep leaves it CONFIRMED, and a cancel then works once', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.create', { kind: 'timeout-before' }, 3);
    expect((await cancelOf(booking)).status).toBe(503);

    advance(2 * 60_000);
    await duffel.settleCalls();
    const swept = await getOf(booking);
    const cancelled = await cancelOf(booking);

    expect(swept).toMatchObject({ status: 'CONFIRMED', version: 1 });
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', version: 2 });
    expect(confirmations(booking.supplier.order_id)).toHaveLength(1);
  });
});

describe('duffel mode: a hold’s cancellation whose answer is lost', () => {
  it('asks Duffel in the request: 200 CANCELLED with a refund of 0, one confirmation sent', async () => {
    const hold = await held();
    standIn.fail('order_cancellations.confirm', { kind: 'timeout-after' });

    const answer = await cancelOf(hold);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund: { amount: 0, currency: 'GBP' } });
    expect(await getOf(hold)).toEqual(answer.body.data);
    expect(confirmations(hold.supplier.order_id)).toHaveLength(1);
  });
});

describe('duffel mode: a payment whose answer is lost', () => {
  it('the sweep confirms a paid hold within 5 minutes, long before its deadline, never paying again', async () => {
    const hold = await held();
    standIn.fail('payments.create', { kind: 'timeout-after' });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);
    expect((await confirmOf(hold)).status).toBe(503);

    advance(2 * 60_000);
    await duffel.settleCalls();

    expect(await getOf(hold)).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(payments(hold.supplier.order_id)).toHaveLength(1);
  });

  it('a function killed after Duffel took the payment: the sweep confirms it', async () => {
    const hold = await held();
    const undo = killAtNext('TransactWriteItemsCommand');
    try {
      expect((await confirmOf(hold)).status).toBeGreaterThanOrEqual(500);
    } finally {
      undo();
    }

    advance(2 * 60_000);
    await duffel.settleCalls();

    expect(await getOf(hold)).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(payments(hold.supplier.order_id)).toHaveLength(1);
  });

  it('an unpaid hold whose call was left stays HELD and confirms later', async () => {
    const hold = await held();
    standIn.fail('payments.create', { kind: 'timeout-before' });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);
    expect((await confirmOf(hold)).status).toBe(503);

    advance(2 * 60_000);
    await duffel.settleCalls();
    const swept = await getOf(hold);
    const confirmed = await confirmOf(hold);

    expect(swept).toMatchObject({ status: 'HELD', version: 1 });
    expect(confirmed.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
  });
});

describe('duffel mode: parallel cancels and confirms', () => {
  it('eight cancels at once: one cancellation at Duffel, every answer the cancelled booking', async () => {
    // Against the patient instance: a loaded machine must not turn the slow quotes into timeouts.
    const search = await slow.search(session, {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: '2027-04-03',
    });
    const booking = (await slow.book(session, bookingBody(search.body.data[0]))).body.data;
    // Every quote is made before any is confirmed, as when eight requests reach Duffel together.
    slow.standIn.fail('order_cancellations.create', { kind: 'slow', ms: 200 }, 8);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => slow.cancel(session, { booking_id: booking.booking_id })),
    );
    slow.standIn.clearFaults();

    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    expect(answers[0]?.body.data).toMatchObject({ status: 'CANCELLED', version: 2 });
    const confirmed = slow.standIn.requests.filter((r) => r.path.endsWith('/actions/confirm'));
    expect(confirmed).toHaveLength(1);
  });

  it('six confirms at once while Duffel takes 4 s to pay: every answer the confirmed booking', async () => {
    const search = await slow.search(session, {
      origin: 'CDG',
      destination: 'FCO',
      departure_date: '2027-04-02',
    });
    const hold = (await slow.book(session, { ...bookingBody(search.body.data[0]), hold: true })).body.data;
    slow.standIn.fail('payments.create', { kind: 'slow', ms: 4000 });
    const body = { booking_id: hold.booking_id, total_price: hold.total_price, currency: hold.currency };

    const answers = await Promise.all(Array.from({ length: 6 }, () => slow.confirm(session, body)));

    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    const paid = slow.standIn.requests.filter((r) => r.path === '/air/payments');
    expect(paid).toHaveLength(1);
  }, 15_000);

  it('a cancellation Duffel refuses is 409 NOT_CANCELLABLE, never Duffel’s own message', async () => {
    const booking = await booked();
    standIn.fail('order_cancellations.create', {
      kind: 'refuse',
      error: { type: 'airline_error', code: 'order_not_cancellable', message: 'Internal: fare rule 16 NR' },
    });

    const answer = await cancelOf(booking);

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('NOT_CANCELLABLE');
    expect(JSON.stringify(answer.body)).not.toContain('fare rule');
    expect((await getOf(booking)).status).toBe('CONFIRMED');
  });
});

describe('duffel mode: the refund quote and cancel at a refund', () => {
  const cancellationRequests = () =>
    standIn.requests.filter((r) => r.path.startsWith('/air/order_cancellations'));

  it('quotes Duffel’s own cancellation quote, never confirming it', async () => {
    const booking = await booked();
    const before = cancellationConfirms();

    const quote = await duffel.refundQuote(session, { booking_id: booking.booking_id });

    expect(quote.status).toBe(200);
    const refund = refundOf(booking);
    expect(quote.body.data).toEqual({
      booking_id: booking.booking_id,
      refund,
      penalty: { amount: Math.round((booking.total_price - refund.amount) * 100) / 100, currency: 'GBP' },
      // The stand-in's quotes last 5 minutes.
      expires_at: new Date(testContext.clock.now() + 5 * 60_000).toISOString().replace('.000', ''),
      refund_to: 'balance',
      airline_credits: [],
    });
    expect(cancellationConfirms()).toBe(before);
    expect(standIn.orders.get(booking.supplier.order_id)?.cancelled_at).toBeNull();
    expect(await getOf(booking)).toEqual(booking);
  });

  it('cancels at the quoted refund; a stale refund is 409 REFUND_CHANGED and cancels nothing at Duffel', async () => {
    const booking = await booked();
    const stale = { amount: booking.total_price, currency: 'GBP' };
    const before = cancellationConfirms();

    const changed = await duffel.cancel(session, { booking_id: booking.booking_id, refund: stale });
    const unchanged = await getOf(booking);
    const confirmsAfterStale = cancellationConfirms() - before;
    const { refund } = (await duffel.refundQuote(session, { booking_id: booking.booking_id })).body.data;
    const cancelled = await duffel.cancel(session, { booking_id: booking.booking_id, refund });

    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({
      code: 'REFUND_CHANGED',
      details: { previous_refund: stale, refund: refundOf(booking), quote: { refund: refundOf(booking) } },
    });
    expect(unchanged).toEqual(booking);
    expect(confirmsAfterStale).toBe(0);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund, version: 2 });
    expect(confirmations(booking.supplier.order_id)).toHaveLength(1);
  });

  it('quotes 0 for a Duffel hold without asking Duffel', async () => {
    const hold = await held();
    const asked = cancellationRequests().length;

    const quote = await duffel.refundQuote(session, { booking_id: hold.booking_id });

    expect(quote.body.data).toMatchObject({ refund: { amount: 0, currency: 'GBP' }, penalty: null });
    expect(cancellationRequests().length).toBe(asked);
  });
});
