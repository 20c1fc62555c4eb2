import { beforeEach, describe, expect, it } from 'vitest';
import { readBooking } from '#shared/bookings/entity/booking-item.ts';
import { openDuffelOffer } from '#shared/supply/duffel/mapping.ts';
import { readSupplierConfig } from '#shared/supply/supplier-config.ts';
import { invoke } from '#test/helpers/api.ts';
import { agencyBookings, bookingBody, type Json, raceHoldsAtTheirDeadlines } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { DUFFEL_TEST_TOKEN, duffelMode } from '#test/helpers/duffel.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { withSupplier } from '#test/helpers/supplier-context.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler as cancelHandler } from '../../../functions/bookings/cancel.ts';
import { createHandler as confirmHandler } from '../../../functions/bookings/confirm.ts';
import { createHandler as getHandler } from '../../../functions/bookings/get.ts';

/**
 * Holds in duffel mode (docs/API.md §4.4, §4.5), through the real handlers against DynamoDB Local and
 * the Duffel stand-in: a hold is a Duffel hold order (no payment), confirm pays it once for exactly its
 * current amount, cancel cancels it at Duffel, and a lapsed hold only changes the booking.
 */
const duffel = await duffelMode();
const { standIn } = duffel;
const HOUR = 3_600_000;

let session: TestSession;
let agencyId: string;
let advance: (ms: number) => void;
let start = 0;
let day = 0;
beforeEach(async () => {
  day += 1;
  // An hour later for every test: Duffel's rate-limit windows move on between tests.
  start = Date.UTC(2026, 11, 1, 9, 0, 0) + day * HOUR;
  advance = freezeClock(start);
  agencyId = `dhold-${Math.random().toString(36).slice(2, 8)}`;
  session = await signIn({ agencyId });
});

/** Moves the clock on by `ms` and signs in again in the same agency: a session lasts an hour. */
async function later(ms: number) {
  advance(ms);
  session = await signIn({ agencyId });
}

const firstOffer = async () => {
  const answer = await duffel.search(session, {
    origin: 'CDG',
    destination: 'FCO',
    departure_date: `2027-02-${String(day).padStart(2, '0')}`,
  });
  expect(answer.status).toBe(200);
  return (answer.body.data as Json[])[0];
};
const duffelOfferId = (flight: Json) =>
  openDuffelOffer(testContext.keys.offer, flight.id)?.duffelOfferId ?? '';
const hold = async (offer: Json) => {
  const answer = await duffel.book(session, { ...bookingBody(offer), hold: true });
  expect(answer.status).toBe(201);
  return answer.body.data;
};
const confirmOf = (booking: Json, price = booking.total_price, headers: Record<string, string> = {}) =>
  duffel.confirm(
    session,
    { booking_id: booking.booking_id, total_price: price, currency: booking.currency },
    headers,
  );
const payments = (orderId: string) =>
  standIn.requests.filter(
    (r) => r.path === '/air/payments' && (r.body as Json)?.data?.order_id === orderId,
  ) as { body: Json }[];
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

describe('duffel mode: holding', () => {
  it('holds with a Duffel hold order, unpaid, until 24 hours later (Duffel allows 3 days)', async () => {
    const offer = await firstOffer();

    const held = await hold(offer);

    const order = standIn.orders.get(held.supplier.order_id);
    expect(held).toMatchObject({
      status: 'HELD',
      pnr: order?.booking_reference,
      payment_required_by: iso(start + 24 * HOUR),
      total_price: offer.total_price,
      version: 1,
    });
    const sent = standIn.requests.filter((r) => r.path === '/air/orders').at(-1)?.body as Json;
    expect(sent.data).toMatchObject({ type: 'hold', metadata: { booking_id: held.booking_id } });
    expect(sent.data.payments).toBeUndefined();
    expect(order?.payment_status.awaiting_payment).toBe(true);
    expect(payments(held.supplier.order_id)).toEqual([]);
  });

  it('ends the hold at Duffel’s payment_required_by when that comes first', async () => {
    const offer = await firstOffer();
    standIn.holdRules(duffelOfferId(offer), {
      payment_required_by: new Date(start + 2 * HOUR + 500).toISOString(),
    });

    const held = await hold(offer);

    expect(held.payment_required_by).toBe(iso(start + 2 * HOUR));
  });

  it('answers 409 HOLD_NOT_AVAILABLE for an offer that requires instant payment, and orders nothing', async () => {
    const offer = await firstOffer();
    standIn.holdRules(duffelOfferId(offer), { requires_instant_payment: true });
    const orders = standIn.orders.size;

    const answer = await duffel.book(session, { ...bookingBody(offer), hold: true });

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('HOLD_NOT_AVAILABLE');
    expect(standIn.orders.size).toBe(orders);
    expect(await agencyBookings(agencyId)).toEqual([]);
  });

  it('answers 202 PENDING when the hold order’s answer is lost; the sweep settles it HELD, never ordering again', async () => {
    const offer = await firstOffer();
    standIn.fail('orders.create', { kind: 'timeout-after' });

    const answer = await duffel.book(session, { ...bookingBody(offer), hold: true });
    const swept = await duffel.sweep();
    const settled = await duffel.get(session, { booking_id: answer.body.data.booking_id });

    expect(answer.status).toBe(202);
    expect(answer.body.data.status).toBe('PENDING');
    expect(swept).toEqual({ confirmed: 0, held: 1, failed: 0, waiting: 0 });
    const orders = [...standIn.orders.values()].filter(
      (o) => o.metadata.booking_id === answer.body.data.booking_id,
    );
    expect(orders).toHaveLength(1);
    expect(settled.body.data).toMatchObject({
      status: 'HELD',
      pnr: orders[0]?.booking_reference,
      payment_required_by: iso(start + 24 * HOUR),
      version: 2,
    });
    expect((await confirmOf(settled.body.data)).body.data.status).toBe('CONFIRMED');
  });
});

describe('duffel mode: confirming a hold', () => {
  it('pays the order once, for exactly its amount; confirming again pays nothing more', async () => {
    const held = await hold(await firstOffer());
    await later(HOUR);

    const confirmed = await confirmOf(held);
    const again = await confirmOf(held);

    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: 'CONFIRMED',
      total_price: held.total_price,
      version: 2,
    });
    expect(confirmed.body.data.payment_required_by).toBeUndefined();
    expect(again.body.data).toEqual(confirmed.body.data);
    const paid = payments(held.supplier.order_id);
    expect(paid.map((p) => p.body.data.payment)).toEqual([
      { type: 'balance', amount: held.total_price.toFixed(2), currency: 'GBP' },
    ]);
    expect(standIn.orders.get(held.supplier.order_id)?.payment_status.awaiting_payment).toBe(false);
  });

  it('holds and confirms a six-journey trip: one hold order with every slice, paid once', async () => {
    const cities = ['CDG', 'FCO', 'MAD', 'LHR', 'JFK', 'LAX', 'CDG'];
    const slices = cities.slice(1).map((destination, i) => ({
      origin: cities[i],
      destination,
      departure_date: `2027-03-${String(day + 2 * i).padStart(2, '0')}`,
    }));
    const answer = await duffel.search(session, { slices });
    const [trip] = answer.body.data as Json[];

    const held = await hold(trip);
    await later(HOUR);
    const confirmed = await confirmOf(held);

    expect(held.flight.slices).toHaveLength(6);
    expect(held.flight).not.toHaveProperty('inbound');
    expect(standIn.orders.get(held.supplier.order_id)?.slices).toHaveLength(6);
    expect(confirmed.body.data).toMatchObject({ status: 'CONFIRMED', flight: held.flight });
    expect(payments(held.supplier.order_id)).toHaveLength(1);
  });

  it('answers 409 PRICE_CHANGED when Duffel moved the held price; confirming at the new price pays that', async () => {
    const held = await hold(await firstOffer());
    const moved = Math.round((held.total_price + 12.5) * 100) / 100;
    standIn.repriceOrder(held.supplier.order_id, moved.toFixed(2));

    const changed = await confirmOf(held);
    const stillHeld = await duffel.get(session, { booking_id: held.booking_id });
    const confirmed = await confirmOf(held, moved);

    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({
      code: 'PRICE_CHANGED',
      details: { previous_total_price: held.total_price, total_price: moved, currency: 'GBP' },
    });
    expect(stillHeld.body.data.status).toBe('HELD');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'CONFIRMED', total_price: moved });
    expect(payments(held.supplier.order_id).map((p) => p.body.data.payment.amount)).toEqual([
      moved.toFixed(2),
    ]);
  });

  it('after a timeout once Duffel took the payment, a retry pays nothing more and answers CONFIRMED', async () => {
    const held = await hold(await firstOffer());
    const key = { 'Idempotency-Key': `pay-${day}` };
    standIn.fail('payments.create', { kind: 'timeout-after' });
    // The order reads before paying, then fails to read after the lost answer (both tries).
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);

    const lost = await confirmOf(held, held.total_price, key);
    const meanwhile = await duffel.get(session, { booking_id: held.booking_id });
    const retried = await confirmOf(held, held.total_price, key);

    expect(lost.status).toBe(503);
    expect(meanwhile.body.data.status).toBe('HELD');
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(payments(held.supplier.order_id)).toHaveLength(1);
  });

  it('a paid hold whose confirm lost its answer is confirmed by the sweep after its deadline, never expired', async () => {
    const held = await hold(await firstOffer());
    standIn.fail('payments.create', { kind: 'timeout-after' });
    standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);
    expect((await confirmOf(held)).status).toBe(503);
    await later(25 * HOUR);

    const late = await duffel.get(session, { booking_id: held.booking_id });
    await duffel.expireHolds();
    const swept = await duffel.get(session, { booking_id: held.booking_id });

    expect(late.body.data.status).toBe('HELD');
    expect(swept.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(payments(held.supplier.order_id)).toHaveLength(1);
  });

  it('ten confirms at once: one payment, one state change, every answer the confirmed booking', async () => {
    const held = await hold(await firstOffer());

    const answers = await Promise.all(Array.from({ length: 10 }, () => confirmOf(held)));

    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    expect(answers[0]?.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(payments(held.supplier.order_id)).toHaveLength(1);
  });
});

describe('duffel mode: a hold ending', () => {
  it('cancel cancels the order at Duffel; an unpaid hold refunds nothing', async () => {
    const held = await hold(await firstOffer());

    const cancelled = await duffel.cancel(session, { booking_id: held.booking_id });
    const confirm = await confirmOf(held);

    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', version: 2 });
    expect(cancelled.body.data.refund).toEqual({ amount: 0, currency: 'GBP' });
    expect(cancelled.body.data.payment_required_by).toBeUndefined();
    expect(standIn.orders.get(held.supplier.order_id)?.cancelled_at).toEqual(expect.any(String));
    expect(confirm.body.error.code).toBe('NOT_HELD');
    expect(payments(held.supplier.order_id)).toEqual([]);
  });

  it('expires at its deadline: EXPIRED at once, confirm 410, the sweep stores it; Duffel’s order is left to lapse', async () => {
    const held = await hold(await firstOffer());
    await later(24 * HOUR);

    const read = await duffel.get(session, { booking_id: held.booking_id });
    const confirm = await confirmOf(held);
    await duffel.expireHolds();
    const stored = (await agencyBookings(agencyId))[0];

    expect(read.body.data).toMatchObject({ status: 'EXPIRED', version: 2 });
    expect(confirm.status).toBe(410);
    expect(confirm.body.error.code).toBe('HOLD_EXPIRED');
    expect(stored).toMatchObject({ status: 'EXPIRED', version: 2 });
    expect(payments(held.supplier.order_id)).toEqual([]);
    expect(standIn.orders.get(held.supplier.order_id)?.cancelled_at).toBeNull();
  });
});

/**
 * The same supplier with the default timeouts: the race below runs five holds' rounds at once, and a
 * Duffel call timing out under that load would be a lost answer (issue 30 item 3), not this race.
 */
const patient = await withSupplier(
  testContext,
  readSupplierConfig({
    SUPPLIER: 'duffel',
    DUFFEL_ACCESS_TOKEN: DUFFEL_TEST_TOKEN,
    DUFFEL_API_URL: standIn.url,
  }),
);

describe('duffel mode: one truth at the deadline', () => {
  /** The routes in duffel mode, each on a clock of its own: a writer's or a reader's. */
  const at = (now: number | (() => number)) => {
    const ctx = { ...patient, clock: { now: typeof now === 'number' ? () => now : now } };
    const send = (handler: (c: typeof ctx) => Parameters<typeof invoke>[0], body: Json) =>
      invoke(handler(ctx), { headers: session.headers, body });
    return {
      confirm: (booking: Json) =>
        send(confirmHandler, {
          booking_id: booking.booking_id,
          total_price: booking.total_price,
          currency: booking.currency,
        }),
      cancel: (booking: Json) => send(cancelHandler, { booking_id: booking.booking_id }),
      get: (booking: Json) => send(getHandler, { booking_id: booking.booking_id }),
    };
  };

  it('a read at the deadline stores the expiry it answers: a confirm by a clock still before it is 410 and pays nothing', async () => {
    const held = await hold(await firstOffer());
    const deadline = Date.parse(held.payment_required_by);
    await later(24 * HOUR - 1000);

    const before = await at(deadline - 1).get(held);
    const read = await at(deadline).get(held);
    const confirm = await at(deadline - 1000).confirm(held);
    const again = await at(deadline - 1).get(held);

    expect(before.body.data).toMatchObject({ status: 'HELD', version: held.version });
    expect(read.body.data).toMatchObject({ status: 'EXPIRED', version: held.version + 1 });
    expect(confirm.status).toBe(410);
    expect(again.body.data).toEqual(read.body.data);
    expect(payments(held.supplier.order_id)).toEqual([]);
  });

  it('races at the deadline: 3 confirms, a cancel and a read together, 50 rounds, every answer what was stored', {
    timeout: 120_000,
  }, async () => {
    const held: Json[] = [];
    for (let page = 0; held.length < 50; page++) {
      const offers = (
        await duffel.search(session, {
          origin: 'CDG',
          destination: 'FCO',
          departure_date: `2027-03-${String(page + 1).padStart(2, '0')}`,
        })
      ).body.data as Json[];
      const holds = await Promise.all(
        offers
          .slice(0, 50 - held.length)
          .map((offer) => duffel.book(session, { ...bookingBody(offer), hold: true })),
      );
      held.push(...holds.map((answer) => answer.body.data));
    }
    await later(24 * HOUR - 1000);
    const { problems, outcomes } = await raceHoldsAtTheirDeadlines(held, {
      routes: (clock, booking) => ({
        confirm: () => at(clock).confirm(booking),
        cancel: () => at(clock).cancel(booking),
        get: () => at(clock).get(booking),
      }),
      stored: (booking) => readBooking(duffel.ctx, booking.booking_id),
      // A cancel that finds a confirm paying the hold is 503 for now (parallel Duffel calls, issue 30
      // item 4): it says nothing untrue.
      unavailable: true,
    });
    for (const booking of held)
      if (payments(booking.supplier.order_id).length > 1) problems.push(`${booking.booking_id} paid twice`);

    expect(problems, JSON.stringify([...outcomes])).toEqual([]);
    expect(outcomes.size, JSON.stringify([...outcomes])).toBeGreaterThanOrEqual(2);
  });
});
