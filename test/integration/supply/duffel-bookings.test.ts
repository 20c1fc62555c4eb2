import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDuffelOffer } from '#shared/supply/duffel/mapping.ts';
import { agencyBookings, bookingBody, type Json, passengersFor } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { DUFFEL_TEST_TOKEN, duffelMode } from '#test/helpers/duffel.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler as createSweep } from '../../../functions/jobs/sweep.ts';

/**
 * Booking in duffel mode, the whole flow through the real handlers against DynamoDB Local and the Duffel
 * stand-in over HTTP: exactly one Duffel order per booking and per offer, whatever fails and where.
 */
const duffel = await duffelMode();
const { standIn } = duffel;

let session: TestSession;
let advance: (ms: number) => void;
let day = 0;
let start = 0;
beforeEach(async () => {
  day += 1;
  // An hour later for every test: Duffel's rate-limit windows (and ours of them) move on between tests.
  start = Date.UTC(2026, 11, 1, 9, 0, 0) + day * 3_600_000;
  advance = freezeClock(start);
  session = await signIn({ agencyId: `duffel-${Math.random().toString(36).slice(2, 8)}` });
});

// The reshapes a test makes of Duffel's answers end with it.
afterEach(() => standIn.clearFaults());

const date = () => `2027-01-${String(day).padStart(2, '0')}`;
const search = async (body: Record<string, unknown> = {}) => {
  const answer = await duffel.search(session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: date(),
    ...body,
  });
  expect(answer.status).toBe(200);
  return answer.body.data as Json[];
};
/** Duffel's offer id sealed inside one of our Flight ids. */
const duffelOfferId = (flight: Json) =>
  openDuffelOffer(testContext.keys.offer, flight.id)?.duffelOfferId ?? '';
const ordersFor = (bookingId: string) =>
  [...standIn.orders.values()].filter((order) => order.metadata.booking_id === bookingId);
describe('duffel mode: booking', () => {
  it('books one instant order for exactly the quoted amount, with our booking id in its metadata', async () => {
    const [offer] = await search({ adults: 2, children: 1, infants: 1 });

    const answer = await duffel.book(session, bookingBody(offer, { adults: 2, children: 1, infants: 1 }));

    expect(answer.status).toBe(201);
    const booking = answer.body.data;
    const orders = ordersFor(booking.booking_id);
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      pnr: order?.booking_reference,
      supplier: { name: 'duffel', order_id: order?.id },
      total_price: offer.total_price,
      currency: 'GBP',
      version: 1,
      flight: offer,
    });
    const sent = standIn.requests.filter((r) => r.path === '/air/orders').at(-1)?.body as Json;
    expect(sent.data.payments).toEqual([
      { type: 'balance', amount: offer.total_price.toFixed(2), currency: 'GBP' },
    ]);
    expect(sent.data.type).toBe('instant');
    expect(sent.data.passengers.map((p: Json) => [p.given_name, p.gender])).toHaveLength(4);
    const infant = sent.data.passengers[3];
    expect(sent.data.passengers[0].infant_passenger_id).toBe(infant.id);
    expect(sent.data.selected_offers).toEqual([duffelOfferId(offer)]);
    expect(sent.data.metadata).toEqual({ booking_id: booking.booking_id });
  });

  it('finds the booking by id and by the airline PNR, and cancels it with the refund Duffel confirms', async () => {
    const [offer] = await search();
    const booked = (await duffel.book(session, bookingBody(offer))).body.data;

    const byPnr = await duffel.get(session, { pnr: booked.pnr });
    const cancelled = await duffel.cancel(session, { booking_id: booked.booking_id });
    const again = await duffel.cancel(session, { booking_id: booked.booking_id });

    expect(byPnr.body.data).toEqual(booked);
    expect(cancelled.status).toBe(200);
    const refund = Math.floor(offer.total_price * 90) / 100;
    expect(cancelled.body.data).toMatchObject({
      status: 'CANCELLED',
      refund: { amount: refund, currency: 'GBP' },
      version: 2,
    });
    expect(again.body.data).toEqual(cancelled.body.data);
    expect(standIn.orders.get(booked.supplier.order_id)?.cancelled_at).toEqual(expect.any(String));
  });

  it('answers Duffel’s conditions on every Flight, null where it says nothing, and the booking keeps them', async () => {
    const offers = await search();
    const stated = offers.find((f) => f.conditions.refund_before_departure !== null);
    const silent = offers.find((f) => f.conditions.refund_before_departure === null);

    const bookedStated = (await duffel.book(session, bookingBody(stated))).body.data;
    const bookedSilent = (await duffel.book(session, bookingBody(silent))).body.data;
    const quote = await duffel.refundQuote(session, { booking_id: bookedStated.booking_id });

    expect(stated.conditions).toEqual({
      refund_before_departure: { allowed: true, penalty: { amount: expect.any(Number), currency: 'GBP' } },
      change_before_departure: { allowed: true, penalty: { amount: expect.any(Number), currency: 'GBP' } },
    });
    expect(silent.conditions).toEqual({ refund_before_departure: null, change_before_departure: null });
    expect(bookedStated.flight.conditions).toEqual(stated.conditions);
    expect(bookedSilent.flight.conditions).toEqual(silent.conditions);
    expect(
      (await duffel.get(session, { booking_id: bookedSilent.booking_id })).body.data.flight.conditions,
    ).toEqual(silent.conditions);
    // The refund is Duffel's own cancellation quote; the stand-in's keeps what the conditions state.
    expect(quote.body.data.penalty).toEqual(stated.conditions.refund_before_departure.penalty);
  });

  it('is version 1 in the first state a client sees: PENDING to a read while the order is under way, then CONFIRMED 2', async () => {
    const [offer] = await search();
    let seen: Json;
    const readWhilePending = (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      const result = await next(args);
      const items = (args as { input?: { TransactItems?: { Put?: { Item?: Json } }[] } }).input
        ?.TransactItems;
      const put = items?.find((item) => JSON.stringify(item.Put?.Item?.status ?? '').includes('PENDING'));
      const id = put?.Put?.Item?.booking_id;
      if (id && !seen) seen = await duffel.get(session, { booking_id: typeof id === 'string' ? id : id.S });
      return result;
    };
    testContext.db.middlewareStack.add(readWhilePending as never, {
      step: 'initialize',
      name: 'readWhilePending',
    });

    const answer = await duffel.book(session, bookingBody(offer));
    testContext.db.middlewareStack.remove('readWhilePending');
    const unseen = await duffel.book(session, bookingBody((await search())[1]));

    expect(seen.body.data).toMatchObject({ status: 'PENDING', version: 1 });
    expect(answer.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(unseen.body.data).toMatchObject({ status: 'CONFIRMED', version: 1 });
  });

  it('books a round trip: both slices in one order', async () => {
    const [trip] = await search({ return_date: `2027-02-${String(day).padStart(2, '0')}` });

    const answer = await duffel.book(session, bookingBody(trip));

    expect(answer.status).toBe(201);
    const [order] = ordersFor(answer.body.data.booking_id);
    expect(order?.slices).toHaveLength(2);
    expect(answer.body.data.flight.inbound.segments[0].origin).toBe('JFK');
  });

  it.each([
    ['three', ['LHR', 'JFK', 'LAX', 'LHR']],
    ['six', ['LHR', 'JFK', 'LAX', 'SFO', 'ORD', 'BOS', 'LHR']],
  ])(
    'books a %s-journey trip: every slice in one offer request and one order, then cancels it',
    async (_n, cities) => {
      const slices = cities.slice(1).map((destination, i) => ({
        origin: cities[i],
        destination,
        departure_date: `2027-02-${String(day + 2 * i).padStart(2, '0')}`,
      }));
      const [trip] = await search({
        origin: undefined,
        destination: undefined,
        departure_date: undefined,
        slices,
      });
      const asked = standIn.requests.filter((r) => r.path.startsWith('/air/offer_requests')).at(-1)
        ?.body as Json;

      const answer = await duffel.book(session, { ...bookingBody(trip), flight_details: trip });
      const cancelled = await duffel.cancel(session, { booking_id: answer.body.data.booking_id });

      expect(asked.data.slices.map((s: Json) => [s.origin, s.destination, s.departure_date])).toEqual(
        slices.map((s) => [s.origin, s.destination, s.departure_date]),
      );
      expect(trip.slices.map((s: Json) => [s.segments[0].origin, s.segments.at(-1).destination])).toEqual(
        slices.map((s) => [s.origin, s.destination]),
      );
      expect(trip.outbound).toEqual(trip.slices[0]);
      expect(trip).not.toHaveProperty('inbound');
      expect(answer.status).toBe(201);
      expect(answer.body.data.flight).toEqual(trip);
      const [order] = ordersFor(answer.body.data.booking_id);
      expect(order?.slices).toHaveLength(slices.length);
      expect(cancelled.body.data.status).toBe('CANCELLED');
    },
  );

  it('answers a same-day multi-city search only the offers leaving 2 hours between journeys, under limit', async () => {
    const slices = [
      { origin: 'LHR', destination: 'CDG', departure_date: date() },
      { origin: 'CDG', destination: 'AMS', departure_date: date() },
    ];
    const none = { origin: undefined, destination: undefined, departure_date: undefined };

    const trips = await search({ ...none, slices, limit: 50 });

    // The stand-in answers every pair of its three flights a day: 9 offers, some leaving too soon.
    expect(trips.length).toBeGreaterThan(0);
    expect(trips.length).toBeLessThan(9);
    for (const trip of trips) {
      const landed = Date.parse(trip.slices[0].segments.at(-1).arrival_at);
      expect(Date.parse(trip.slices[1].segments[0].departure_at) - landed).toBeGreaterThanOrEqual(7_200_000);
    }
  });

  it('answers 409 PRICE_CHANGED with a fresh Flight when Duffel re-prices, and the fresh one books', async () => {
    const [offer] = await search();
    standIn.reprice(duffelOfferId(offer), (offer.total_price + 12.5).toFixed(2));

    const changed = await duffel.book(session, bookingBody(offer));
    const fresh = changed.body.error.details.flight;
    const rebooked = await duffel.book(session, bookingBody(fresh));

    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({
      code: 'PRICE_CHANGED',
      details: {
        previous_total_price: offer.total_price,
        total_price: offer.total_price + 12.5,
        currency: 'GBP',
      },
    });
    expect(fresh.id).not.toBe(offer.id);
    expect(rebooked.status).toBe(201);
    expect(rebooked.body.data.total_price).toBe(offer.total_price + 12.5);
  });

  it('answers 409 CONDITIONS_CHANGED with a fresh Flight when a slice’s conditions moved at Duffel, booking nothing', async () => {
    const [offer] = await search({ return_date: `2027-02-${String(day).padStart(2, '0')}` });
    // The airline no longer refunds the way back: Duffel's re-read says so, at the same price.
    const refused = { allowed: false, penalty_amount: null, penalty_currency: null };
    standIn.reshape('offers.get', (read) => {
      read.slices[1].conditions.refund_before_departure = refused;
      read.conditions.refund_before_departure = refused;
      return read;
    });

    const changed = await duffel.book(session, bookingBody(offer));
    const fresh = changed.body.error.details.flight;
    const ordered = standIn.requests.filter(
      (r) => r.path === '/air/orders' && JSON.stringify(r.body).includes(duffelOfferId(offer)),
    );
    const booked = await agencyBookings(session.agent.agency_id);
    const rebooked = await duffel.book(session, bookingBody(fresh));

    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('CONDITIONS_CHANGED');
    expect(fresh.id).not.toBe(offer.id);
    expect(fresh.total_price).toBe(offer.total_price);
    expect(fresh.inbound.conditions.refund_before_departure).toEqual({ allowed: false, penalty: null });
    expect(fresh.conditions.refund_before_departure).toEqual({ allowed: false, penalty: null });
    expect(fresh.outbound.conditions).toEqual(offer.outbound.conditions);
    expect(ordered).toEqual([]);
    expect(booked).toEqual([]);
    expect(rebooked.status).toBe(201);
    expect(rebooked.body.data.flight.inbound.conditions).toEqual(fresh.inbound.conditions);
    expect(rebooked.body.data.flight.price_breakdown).toEqual(fresh.price_breakdown);
    expect(rebooked.body.data.flight.inbound).toMatchObject({
      baggage: fresh.inbound.baggage,
      fare_brand: 'Standard',
    });
  });

  it('answers PRICE_CHANGED, not CONDITIONS_CHANGED, when both the price and the conditions moved', async () => {
    const [offer] = await search();
    standIn.reprice(duffelOfferId(offer), (offer.total_price + 3).toFixed(2));
    standIn.reshape('offers.get', (read) => {
      read.slices[0].conditions.change_before_departure = null;
      return read;
    });

    const changed = await duffel.book(session, bookingBody(offer));

    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('PRICE_CHANGED');
    expect(changed.body.error.details.flight.outbound.conditions.change_before_departure).toBeNull();
  });

  it('answers 409 SOLD_OUT when the offer vanished at Duffel, and writes nothing', async () => {
    const [offer] = await search();
    standIn.withdraw(duffelOfferId(offer));

    const answer = await duffel.book(session, bookingBody(offer));

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('SOLD_OUT');
    expect(await agencyBookings(session.agent.agency_id)).toEqual([]);
  });

  it('answers 410 OFFER_EXPIRED after the earlier of Duffel’s expiry and 20 minutes', async () => {
    const [offer] = await search();
    expect(offer.expires_at).toBe(new Date(start + 20 * 60_000).toISOString().replace('.000', ''));
    advance(20 * 60_000);

    const answer = await duffel.book(session, bookingBody(offer));

    expect(answer.status).toBe(410);
  });
});

describe('duffel mode: exactly one order', () => {
  it('replays an Idempotency-Key retry without ordering again', async () => {
    const [offer] = await search();
    const key = { 'Idempotency-Key': `retry-${day}` };

    const first = await duffel.book(session, bookingBody(offer), key);
    const second = await duffel.book(session, bookingBody(offer), key);

    expect(second.status).toBe(201);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
    expect(second.body.data).toEqual(first.body.data);
    expect(ordersFor(first.body.data.booking_id)).toHaveLength(1);
  });

  it('makes one Duffel order from 6 parallel bookings of one offer', async () => {
    const [offer] = await search();
    const before = standIn.orders.size;

    const answers = await Promise.all(
      Array.from({ length: 6 }, () => duffel.book(session, bookingBody(offer))),
    );

    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201).map((a) => a.body.error.code)).toEqual(
      Array(5).fill('OFFER_EXPIRED'),
    );
    expect(standIn.orders.size - before).toBe(1);
  });

  it('answers 202 PENDING when Duffel made the order but the answer never came; the sweep confirms it', async () => {
    const [offer] = await search();
    standIn.fail('orders.create', { kind: 'timeout-after' });

    const answer = await duffel.book(session, bookingBody(offer));
    const pending = await duffel.get(session, { booking_id: answer.body.data.booking_id });
    const swept = await duffel.sweep();
    const settled = await duffel.get(session, { booking_id: answer.body.data.booking_id });
    const [order] = ordersFor(answer.body.data.booking_id);

    expect(answer.status).toBe(202);
    // The first state a client sees is version 1, and each change it sees adds one.
    expect(answer.body.data).toMatchObject({
      status: 'PENDING',
      pnr: null,
      supplier: { name: 'duffel' },
      version: 1,
    });
    expect(pending.body.data).toMatchObject({ status: 'PENDING', version: 1 });
    expect(swept.confirmed).toBeGreaterThanOrEqual(1);
    expect(settled.body.data).toMatchObject({
      status: 'CONFIRMED',
      pnr: order?.booking_reference,
      supplier: { name: 'duffel', order_id: order?.id },
      version: 2,
    });
    expect(ordersFor(answer.body.data.booking_id)).toHaveLength(1);
  });

  it('a sweep run that settles a PENDING booking logs its counts once, on one line with the holds it expired', async () => {
    const [offer] = await search();
    standIn.fail('orders.create', { kind: 'timeout-after' });
    const answer = await duffel.book(session, bookingBody(offer));
    expect(answer.status).toBe(202);
    const before = capturedLogLines.length;

    const run = await createSweep(duffel.ctx)(undefined);

    const lines = capturedLogLines.slice(before).map((line) => JSON.parse(line));
    expect(run.confirmed).toBeGreaterThanOrEqual(1);
    expect(lines.filter((line) => line.message === 'sweep')).toEqual([
      expect.objectContaining({ expired_holds: run.expired, confirmed: run.confirmed }),
    ]);
  });

  it('finds the order even when Duffel spells the passenger’s name differently, never ordering again', async () => {
    const [offer] = await search();
    standIn.fail('orders.create', { kind: 'timeout-after' });
    const answer = await duffel.book(session, bookingBody(offer));
    const [order] = ordersFor(answer.body.data.booking_id);
    if (!order) throw new Error('the stand-in made no order');
    standIn.orders.set(order.id, {
      ...order,
      passengers: order.passengers.map((p) => ({ ...p, family_name: 'LOVELACE-KING' })),
    });
    const ordersBefore = standIn.orders.size;

    await duffel.sweep();
    const settled = await duffel.get(session, { booking_id: answer.body.data.booking_id });

    expect(settled.body.data).toMatchObject({ status: 'CONFIRMED', pnr: order.booking_reference });
    expect(standIn.orders.size).toBe(ordersBefore);
  });

  it('answers 202 on a 5xx after sending; a key retry answers the truth once settled', async () => {
    const [offer] = await search();
    const key = { 'Idempotency-Key': `after-5xx-${day}` };
    standIn.fail('orders.create', { kind: 'error-after', status: 502 });

    const first = await duffel.book(session, bookingBody(offer), key);
    const retryPending = await duffel.book(session, bookingBody(offer), key);
    await duffel.sweep();
    const retrySettled = await duffel.book(session, bookingBody(offer), key);

    expect(first.status).toBe(202);
    expect(retryPending.status).toBe(202);
    expect(retrySettled.status).toBe(201);
    expect(retrySettled.body.data.status).toBe('CONFIRMED');
    expect(ordersFor(first.body.data.booking_id)).toHaveLength(1);
  });

  it('settles FAILED when no order was made (killed before the call), freeing the offer', async () => {
    const [offer] = await search();
    standIn.fail('orders.create', { kind: 'timeout-before' });

    const answer = await duffel.book(session, bookingBody(offer));
    const early = await duffel.sweep();
    advance(3 * 60_000);
    const late = await duffel.sweep();
    const failed = await duffel.get(session, { booking_id: answer.body.data.booking_id });
    const rebooked = await duffel.book(session, bookingBody(offer));

    expect(answer.status).toBe(202);
    expect(early.waiting).toBeGreaterThanOrEqual(1);
    expect(late.failed).toBeGreaterThanOrEqual(1);
    expect(failed.body.data).toMatchObject({ status: 'FAILED', pnr: null, version: 2 });
    expect(ordersFor(answer.body.data.booking_id)).toHaveLength(0);
    expect(rebooked.status).toBe(201);
  });

  it('a key replay of a create whose booking FAILED answers the error it met, never a 2xx', async () => {
    const [offer] = await search();
    const key = { 'Idempotency-Key': `failed-${day}` };
    standIn.fail('orders.create', { kind: 'timeout-before' });
    const first = await duffel.book(session, bookingBody(offer), key);
    advance(3 * 60_000);
    await duffel.sweep();

    const replay = await duffel.book(session, bookingBody(offer), key);

    expect(first.status).toBe(202);
    expect(replay.status).toBe(422);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.body).toMatchObject({ success: false, error: { code: 'SUPPLIER_REJECTED' } });
    expect(ordersFor(first.body.data.booking_id)).toHaveLength(0);
  });

  it('stays PENDING when our write fails after Duffel ordered; the sweep confirms the one order', async () => {
    const [offer] = await search();
    let transactions = 0;
    testContext.db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && ++transactions === 2) {
          throw Object.assign(new Error('injected'), {
            name: 'InternalServerError',
            $fault: 'server',
            $metadata: {},
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failSettle' },
    );
    let answer: Json;
    try {
      answer = await duffel.book(session, bookingBody(offer));
    } finally {
      testContext.db.middlewareStack.remove('failSettle');
    }
    await duffel.sweep();
    const settled = await duffel.get(session, { booking_id: answer.body.data.booking_id });

    expect(answer.status).toBe(202);
    expect(settled.body.data.status).toBe('CONFIRMED');
    expect(ordersFor(answer.body.data.booking_id)).toHaveLength(1);
  });
});

describe('duffel mode: Duffel unavailable or refusing', () => {
  it.each([
    ['429', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['timeout', { kind: 'timeout-before' }],
  ] as const)('answers 503 with Retry-After when search meets %s, twice', async (_name, fault) => {
    standIn.fail('offer_requests.create', fault, 2);

    const answer = await duffel.search(session, {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: date(),
    });

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(answer.headers['Retry-After'])).toBeGreaterThan(0);
  });

  it('retries a read once: one 500 on the offer re-read still books', async () => {
    const [offer] = await search();
    standIn.fail('offers.get', { kind: 'status', status: 500 });

    const answer = await duffel.book(session, bookingBody(offer));

    expect(answer.status).toBe(201);
  });

  it.each([
    ['429 before acting', { kind: 'status', status: 429 }],
    ['500 on the re-read, twice', undefined],
  ] as const)('answers 503 on %s with nothing half-made, and the offer books later', async (_name, fault) => {
    const [offer] = await search();
    if (fault) standIn.fail('orders.create', fault);
    else standIn.fail('offers.get', { kind: 'status', status: 500 }, 2);

    const answer = await duffel.book(session, bookingBody(offer), {
      'Idempotency-Key': `unavailable-${day}`,
    });
    const stored = await agencyBookings(session.agent.agency_id);
    // The client waits as told: Duffel's rate-limit window is honoured until it resets.
    advance(Number(answer.headers['Retry-After']) * 1000);
    const retried = await duffel.book(session, bookingBody(offer), {
      'Idempotency-Key': `unavailable-${day}`,
    });

    expect(answer.status).toBe(503);
    expect(Number(answer.headers['Retry-After'])).toBeGreaterThan(0);
    expect(stored).toEqual([]);
    expect(retried.status).toBe(201);
  });

  it('answers 400 on our field for a Duffel validation error, and 422 SUPPLIER_REJECTED otherwise', async () => {
    const [first, second] = await search();
    standIn.fail('orders.create', {
      kind: 'refuse',
      error: {
        type: 'validation_error',
        code: 'invalid_date',
        message: 'born_on must be after 1900',
        source: { field: 'passengers[0].born_on' },
      },
    });
    const onField = await duffel.book(session, bookingBody(first));
    standIn.fail('orders.create', {
      kind: 'refuse',
      error: { type: 'airline_error', code: 'airline_unknown', message: 'The airline declined the booking.' },
    });
    const rejected = await duffel.book(session, bookingBody(second));
    const nonBinary = await duffel.book(session, {
      ...bookingBody(first),
      passengers: passengersFor().map((p) => ({ ...p, gender: 'x' })),
    });

    expect(onField.status).toBe(400);
    expect(onField.body.error.details).toEqual([
      { path: 'passengers.0.born_on', message: 'born_on must be after 1900' },
    ]);
    expect(rejected.status).toBe(422);
    expect(rejected.body.error).toMatchObject({
      code: 'SUPPLIER_REJECTED',
      details: [{ message: 'The airline declined the booking.' }],
    });
    expect(nonBinary.status).toBe(400);
    expect(nonBinary.body.error.details[0].path).toBe('passengers.0.gender');
    expect(await agencyBookings(session.agent.agency_id)).toEqual([]);
  });
});

describe('duffel mode: the token', () => {
  it('is sent to Duffel only, in the Authorization header, and appears in no answer', async () => {
    // Its own calls, so that it proves the same run alone as after the file's other tests.
    const [requestsBefore, answersBefore] = [standIn.requests.length, duffel.answers.length];
    const [offer] = await search();
    const booked = await duffel.book(session, bookingBody(offer));
    expect(booked.status).toBe(201);
    const { booking_id } = booked.body.data;
    expect((await duffel.get(session, { booking_id })).status).toBe(200);
    expect((await duffel.cancel(session, { booking_id })).status).toBe(200);

    const sent = standIn.requests.slice(requestsBefore);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const request of standIn.requests)
      expect(request.headers.authorization).toBe(`Bearer ${DUFFEL_TEST_TOKEN}`);
    const answers = duffel.answers.slice(answersBefore);
    expect(answers).toHaveLength(4);
    expect(JSON.stringify(duffel.answers)).not.toContain(DUFFEL_TEST_TOKEN);
  });
});
