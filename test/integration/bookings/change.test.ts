import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openChange, sealChange } from '#shared/flights/change-quote.ts';
import { TAKEN_SEATS } from '#shared/flights/inventory-item.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { scheduledFlight } from '#shared/flights/schedule.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  agencyBookings,
  book,
  bookingBody,
  inventoryItem,
  type Json,
  searchOffers,
  seatsSold,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as change } from '#test/helpers/routes/bookings/change.ts';
import { handler as changeSearch } from '#test/helpers/routes/bookings/change-search.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as refundQuote } from '#test/helpers/routes/bookings/refund-quote.ts';
import { handler as services } from '#test/helpers/routes/flights/services.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

/**
 * Changes on the built-in network (docs/API.md §4.9): change-search quotes the trip with a journey
 * moved, change makes it in one transaction (old seats back, new ones taken), once. Bookings here are
 * sold in LHR-JFK's third economy bucket (84 seats gone): changeable at 25 € a passenger, refundable.
 */
let session: TestSession;
let advance: (ms: number) => void;
let date: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SOLD = 84;
const CHANGE_PENALTY = 25;

const call = (handler: typeof get, path: string, body: unknown, who = session, headers = {}) =>
  invoke(handler, { path: `/api/flights/booking/${path}`, headers: { ...who.headers, ...headers }, body });

async function bookOne(who = session, sold = SOLD): Promise<Json> {
  const first = (await searchOffers(who, { departure_date: date }))[0];
  await sellSeats(first.outbound.segments[0].flight_number, date, sold);
  const offers = await searchOffers(who, { departure_date: date });
  const answer = await book(who, bookingBody(offers[0]));
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

const searchChanges = (booking: Json, journeys: unknown[], who = session, limit = 50) =>
  call(changeSearch, 'change-search', { booking_id: booking.booking_id, journeys, limit }, who);
const changeTo = (booking: Json, offer: Json, who = session, headers = {}) =>
  call(
    change,
    'change',
    { booking_id: booking.booking_id, change_offer_id: offer.id, change_total: offer.change_total },
    who,
    headers,
  );
const flightOf = (offerOrBooking: Json) => offerOrBooking.flight.outbound.segments[0].flight_number;

describe('fn: booking change-search', () => {
  it('quotes the trip moved to the new day: penalty plus fare difference, sorted by price, changing nothing', async () => {
    const booking = await bookOne();
    const next = addDays(date, 60);

    const answer = await searchChanges(booking, [{ index: 0, departure_date: next }]);

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const offers: Json[] = answer.body.data;
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      expect(offer.flight.outbound.segments[0].departure_at.slice(0, 10) >= next).toBe(true);
      expect(offer.penalty).toEqual({ amount: CHANGE_PENALTY, currency: 'EUR' });
      const difference = Math.round((offer.flight.total_price - booking.total_price) * 100) / 100;
      expect(offer.fare_difference).toEqual({ amount: difference, currency: 'EUR' });
      expect(offer.change_total.amount).toBe(Math.round((CHANGE_PENALTY + difference) * 100) / 100);
      expect(offer.flight.passengers).toEqual(booking.flight.passengers);
      expect(offer.flight.travel_class).toBe(booking.flight.travel_class);
    }
    const totals = offers.map((o) => o.change_total.amount);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    // The cheapest bucket of the day after is cheaper than the third one: money back, to the balance.
    expect(offers[0].change_total.amount).toBeLessThan(0);
    expect(offers[0].refund_to).toBe('balance');
    expect((await call(get, 'get', { booking_id: booking.booking_id })).body.data).toEqual(booking);
  });

  it('returns 409 NOT_CHANGEABLE for a fare that allows no change', async () => {
    const cheapest = await bookOne(session, 0);

    const answer = await searchChanges(cheapest, [{ index: 0, departure_date: addDays(date, 60) }]);

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('NOT_CHANGEABLE');
  });

  it('returns 409 NOT_CHANGEABLE for a cancelled booking, and for a journey that has departed', async () => {
    const cancelled = await bookOne();
    await call(cancel, 'cancel', { booking_id: cancelled.booking_id });
    const departing = await bookOne();
    const journeys = [{ index: 0, departure_date: addDays(date, 60) }];

    const afterCancel = await searchChanges(cancelled, journeys);
    advance(Date.parse(departing.flight.outbound.segments[0].departure_at) - Date.now() + 60_000);
    // A session lasts an hour: signed in again, in the same agency.
    const late = await signIn({ agencyId: session.agent.agency_id });
    const afterDeparture = await searchChanges(departing, journeys, late);

    expect([afterCancel.status, afterCancel.body.error.code]).toEqual([409, 'NOT_CHANGEABLE']);
    expect([afterDeparture.status, afterDeparture.body.error.code]).toEqual([409, 'NOT_CHANGEABLE']);
  });

  it('returns 400 on a journey the booking does not have, and 404 for another agency’s booking', async () => {
    const booking = await bookOne();
    const stranger = await signIn({ agencyId: 'agency-stranger' });

    const missing = await searchChanges(booking, [{ index: 1, departure_date: addDays(date, 60) }]);
    const foreign = await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }], stranger);

    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: 'journeys.0.index', message: 'must be below 1' }]);
    expect(foreign.status).toBe(404);
  });
});

describe('fn: booking change', () => {
  it('changes the flights in one step: old seats back, new ones taken, version + 1, changes recorded', async () => {
    const booking = await bookOne();
    const [offer] = (await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }])).body
      .data;
    const newFlight = flightOf(offer);
    const soldBefore = await seatsSold(newFlight, addDays(date, 60));

    const answer = await changeTo(booking, offer);

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const changed = answer.body.data;
    expect(changed.version).toBe(booking.version + 1);
    expect(changed.flight.outbound).toEqual(offer.flight.outbound);
    expect(changed.total_price).toBe(offer.flight.total_price);
    expect(changed.changes).toEqual([
      {
        at: '2026-12-01T09:00:00Z',
        by: booking.created_by,
        from: booking.flight.outbound.segments,
        to: offer.flight.outbound.segments,
        change_total: offer.change_total,
      },
    ]);
    expect(await seatsSold(flightOf(booking), date)).toBe(SOLD);
    expect(await seatsSold(newFlight, addDays(date, 60))).toBe(soldBefore + 1);
    expect((await call(get, 'get', { booking_id: booking.booking_id })).body.data).toEqual(changed);
  });

  it('changes once under an Idempotency-Key, and a second use of the offer is 410 OFFER_EXPIRED', async () => {
    const booking = await bookOne();
    const [offer] = (await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }])).body
      .data;
    const key = { 'Idempotency-Key': 'change-once-1' };

    const first = await changeTo(booking, offer, session, key);
    const replay = await changeTo(booking, offer, session, key);
    const again = await changeTo(booking, offer);

    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    expect(again.status).toBe(410);
    expect(await seatsSold(flightOf(offer), addDays(date, 60))).toBe(1);
  });

  it('returns 409 PRICE_CHANGED with the fresh change offer when the total moved, 410 once expired', async () => {
    const booking = await bookOne();
    const [offer] = (await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }])).body
      .data;
    // Seats sold meanwhile push the new flight into its next bucket.
    await sellSeats(flightOf(offer), addDays(date, 60), SOLD);

    const wrongTotal = await call(change, 'change', {
      booking_id: booking.booking_id,
      change_offer_id: offer.id,
      change_total: { amount: offer.change_total.amount + 1, currency: 'EUR' },
    });
    const moved = await changeTo(booking, offer);
    advance(21 * 60_000);
    const expired = await changeTo(booking, offer);

    expect(wrongTotal.status).toBe(409);
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.error.code).toBe('PRICE_CHANGED');
    const fresh = moved.body.error.details.change_offer;
    expect(fresh.change_total.amount).toBeGreaterThan(offer.change_total.amount);
    expect(moved.body.error.details.total_price).toBe(fresh.change_total.amount);
    expect(expired.status).toBe(410);
    expect(await seatsSold(flightOf(booking), date)).toBe(SOLD + 1);
  });
});

describe('races: a cancel that read the booking before a change', () => {
  it('cancels the booking as changed: the new seats go back, the old ones only once', async () => {
    const booking = await bookOne();
    const next = addDays(date, 60);
    const [offer] = (await searchChanges(booking, [{ index: 0, departure_date: next }])).body.data;
    // The change lands between the cancel's read of the booking and its write.
    let armed = true;
    let changed: Json;
    testContext.db.middlewareStack.add(
      (run, ctx) => async (args) => {
        const result = await run(args);
        if (
          armed &&
          ctx.commandName === 'GetItemCommand' &&
          JSON.stringify(args.input).includes(booking.booking_id)
        ) {
          armed = false;
          changed = await changeTo(booking, offer);
        }
        return result;
      },
      { step: 'initialize', name: 'changeMeanwhile', priority: 'low' },
    );
    let cancelled: Json;
    try {
      cancelled = await call(cancel, 'cancel', { booking_id: booking.booking_id });
    } finally {
      testContext.db.middlewareStack.remove('changeMeanwhile');
    }

    expect(changed.status).toBe(200);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', version: 3 });
    expect(cancelled.body.data.flight.outbound).toEqual(offer.flight.outbound);
    expect(await seatsSold(flightOf(booking), date)).toBe(SOLD);
    expect(await seatsSold(flightOf(offer), next)).toBe(0);
  });
});

describe('races: changes onto the last seat', () => {
  it('lets one of two parallel changes take the last seat, the other 409 SOLD_OUT, and the seats add up', {
    timeout: 60_000,
  }, async () => {
    const other = await signIn({ agencyId: 'agency-change-race' });
    const first = await bookOne(session);
    const second = (await book(other, bookingBody((await searchOffers(other, { departure_date: date }))[0])))
      .body.data;
    const next = addDays(date, 60);
    const target = flightOf((await searchChanges(first, [{ index: 0, departure_date: next }])).body.data[0]);
    const capacity = scheduledFlight(target, next)?.leg.aircraft.seats.ECONOMY ?? 0;
    await sellSeats(target, next, capacity - 1);
    const onto = async (booking: Json, who: TestSession) =>
      (
        (await searchChanges(booking, [{ index: 0, departure_date: next }], who, 100)).body.data as Json[]
      ).find((o) => flightOf(o) === target);
    const offers = [await onto(first, session), await onto(second, other)];

    const answers = await Promise.all([
      changeTo(first, offers[0], session),
      changeTo(second, offers[1], other),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.error.code).toBe('SOLD_OUT');
    expect(await seatsSold(target, next)).toBe(capacity);
    // Two booked on the first day; the winner's seat went back.
    expect(await seatsSold(flightOf(first), date)).toBe(SOLD + 2 - 1);
  });
});

describe('changes and what a fare includes', () => {
  const servicesOf = async (offer: Json) =>
    (await invoke(services, { headers: session.headers, body: { flight_id: offer.id } })).body.data;
  const storedBooking = async (booking: Json) =>
    (await agencyBookings(session.agent.agency_id)).find((b) => b.booking_id === booking.booking_id);
  /** A change offer onto the flight of the cheapest one on `day`, once `sold` of its seats are gone. */
  async function changeOfferAt(booking: Json, index: number, day: string, sold: number): Promise<Json> {
    const journeys = [{ index, departure_date: day }];
    const target = (await searchChanges(booking, journeys)).body.data[0].flight.slices[index].segments[0];
    await sellSeats(target.flight_number, day, sold);
    const offers: Json[] = (await searchChanges(booking, journeys, session, 100)).body.data;
    return offers.find((o) => o.flight.slices[index].segments[0].flight_number === target.flight_number);
  }

  it('stores what the new journey was paid, so a later refund counts journey by journey', async () => {
    const back = addDays(date, 7);
    const first = (await searchOffers(session, { departure_date: date, return_date: back }))[0];
    await sellSeats(first.outbound.segments[0].flight_number, date, SOLD);
    const offer = (await searchOffers(session, { departure_date: date, return_date: back }))[0];
    const booking = (await book(session, bookingBody(offer))).body.data;
    // The way out is refundable at a penalty, the way back (its cheapest bucket) not at all.
    expect(booking.flight.outbound.conditions.refund_before_departure.allowed).toBe(true);
    expect(booking.flight.inbound.conditions.refund_before_departure.allowed).toBe(false);
    const inboundPaid = (await storedBooking(booking))?.segments[1].paid;
    // A day later, still before the way back.
    const change = await changeOfferAt(booking, 0, addDays(date, 1), SOLD);

    const changed = (await changeTo(booking, change)).body.data;
    const quote = await call(refundQuote, 'refund-quote', { booking_id: booking.booking_id });

    const stored = await storedBooking(booking);
    const paid = stored?.segments.map((s: Json) => s.paid);
    expect(paid[1]).toBe(inboundPaid);
    expect(paid[0] + paid[1]).toBe(Math.round(changed.total_price * 100));
    const rows = changed.flight.price_breakdown.reduce((n: number, r: Json) => n + r.total * 100, 0);
    expect(Math.round(rows)).toBe(Math.round(changed.total_price * 100));
    const outbound = changed.flight.outbound.conditions.refund_before_departure;
    expect(outbound.allowed).toBe(true);
    expect(quote.body.data.refund).toEqual({
      amount: (paid[0] - Math.round(outbound.penalty.amount * 100)) / 100,
      currency: 'EUR',
    });
  });

  it('gives back the seats and bags of the journey changed: the seat is free again, the fare difference counts them', async () => {
    const first = (await searchOffers(session, { departure_date: date }))[0];
    await sellSeats(first.outbound.segments[0].flight_number, date, SOLD);
    const offer = (await searchOffers(session, { departure_date: date }))[0];
    const [bag] = (await servicesOf(offer)).bags;
    const extras = {
      services: [{ id: bag.id, quantity: 1 }],
      seats: [{ segment_index: 0, passenger_index: 0, designator: '16A' }],
    };
    const total = Math.round((offer.total_price + bag.price.amount + 20) * 100) / 100;
    const made = await book(session, { ...bookingBody(offer), ...extras, total_price: total });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const booking = made.body.data;
    const [change] = (await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }])).body
      .data;

    const changed = await changeTo(booking, change);

    // What the changed journey was paid counts its bag and its seat (the fare allows money back).
    const difference = Math.round((change.flight.total_price - booking.total_price) * 100) / 100;
    expect(change.fare_difference.amount).toBe(difference);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.services).toBeUndefined();
    expect(changed.body.data.price_breakdown).toBeUndefined();
    expect(changed.body.data.passengers[0].seats).toBeUndefined();
    expect(changed.body.data.total_price).toBe(change.flight.total_price);
    const item = await inventoryItem(flightOf(booking), date);
    expect(item?.sold_Y).toBe(SOLD);
    expect(item?.[TAKEN_SEATS]).toBeUndefined();
    expect((await call(get, 'get', { booking_id: booking.booking_id })).body.data).toEqual(changed.body.data);
  });

  it('returns 409 CONDITIONS_CHANGED with a fresh change offer when the conditions moved since, changing nothing', async () => {
    const booking = await bookOne();
    const [offer] = (await searchChanges(booking, [{ index: 0, departure_date: addDays(date, 60) }])).body
      .data;
    const quote = openChange(testContext.keys.offer, offer.id);
    if (!quote) throw new Error('not a change offer');
    // As if change-search had shown other conditions (sealed under an older conditions table).
    const stale = {
      ...offer,
      id: sealChange(testContext.keys.offer, { ...quote, conditions: 'AAAAAAAAAAAAAAAA' }),
    };

    const moved = await changeTo(booking, stale);
    const unchanged = (await call(get, 'get', { booking_id: booking.booking_id })).body.data;
    const fresh = moved.body.error?.details?.change_offer;
    const again = await changeTo(booking, fresh);

    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe('CONDITIONS_CHANGED');
    expect(moved.body.error.details.flight).toEqual(fresh.flight);
    expect(fresh.id).not.toBe(stale.id);
    expect(fresh.change_total).toEqual(offer.change_total);
    expect(unchanged).toEqual(booking);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
