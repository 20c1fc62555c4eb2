import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findAirport } from '#shared/flights/airports.ts';
import { addDays, localDateAt } from '#shared/flights/local-time.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  type Json,
  seatsSold,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as confirm } from '#test/helpers/routes/bookings/confirm.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as refundQuote } from '#test/helpers/routes/bookings/refund-quote.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

const HOUR = 3_600_000;
let session: TestSession;
let agencyId: string;
let advance: (ms: number) => void;
let date: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
  agencyId = session.agent.agency_id;
  // Far enough ahead to hold for 24 hours.
  date = addDays(date, 10);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** London, New York, Los Angeles, London; or six journeys round the United States. */
const routes = {
  three: [
    ['LHR', 'JFK'],
    ['JFK', 'LAX'],
    ['LAX', 'LHR'],
  ],
  six: [
    ['LHR', 'JFK'],
    ['JFK', 'LAX'],
    ['LAX', 'SFO'],
    ['SFO', 'ORD'],
    ['ORD', 'BOS'],
    ['BOS', 'LHR'],
  ],
} as const;

async function multiCity(kind: keyof typeof routes, body: Record<string, unknown> = {}): Promise<Json[]> {
  const slices = routes[kind].map(([origin, destination], i) => ({
    origin,
    destination,
    departure_date: addDays(date, 2 * i),
  }));
  const answer = await invoke(search, {
    path: '/api/flights/search',
    headers: session.headers,
    body: { slices, limit: 5, ...body },
  });
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

const segmentsOf = (flight: Json): Json[] => flight.slices.flatMap((s: Json) => s.segments);
/** The flight-date of a segment as the inventory keys it: its local departure day at the origin. */
const dayOf = (segment: Json) =>
  localDateAt(findAirport(segment.origin)?.timeZone ?? 'UTC', Date.parse(segment.departure_at));
/** Seats sold on every segment of the offer, journey by journey. */
const soldOn = (flight: Json, cabin = 'Y') =>
  Promise.all(segmentsOf(flight).map((s) => seatsSold(s.flight_number, dayOf(s), cabin)));
const call = (handler: typeof get, path: string, body: unknown) =>
  invoke(handler, { path: `/api/flights/booking/${path}`, headers: session.headers, body });

describe('fn: booking create and cancel, multi-city', () => {
  it.each(['three', 'six'] as const)(
    'books every journey of a %s-journey trip in one step and gives every seat back on cancel',
    async (kind) => {
      const [offer] = await multiCity(kind, { adults: 2 });
      const before = await soldOn(offer);

      const answer = await book(session, { ...bookingBody(offer), flight_details: offer });

      expect(answer.status).toBe(201);
      expect(answer.body.data.flight).toEqual(offer);
      expect(answer.body.data.flight.slices).toHaveLength(routes[kind].length);
      expect(await soldOn(offer)).toEqual(before.map((n) => n + 2));
      const fetched = await call(get, 'get', { booking_id: answer.body.data.booking_id });
      expect(fetched.body.data.flight.slices).toEqual(offer.slices);

      const cancelled = await call(cancel, 'cancel', { booking_id: answer.body.data.booking_id });

      expect(cancelled.body.data.status).toBe('CANCELLED');
      expect(await soldOn(offer)).toEqual(before);
    },
  );

  it('quotes the refund of a six-journey booking from the conditions it was sold with, and cancels at that refund', async () => {
    const [offer] = await multiCity('six');
    const booked = (await book(session, { ...bookingBody(offer), flight_details: offer })).body.data;

    const quote = await call(refundQuote, 'refund-quote', { booking_id: booked.booking_id });
    const cancelled = await call(cancel, 'cancel', {
      booking_id: booked.booking_id,
      refund: quote.body.data.refund,
    });

    expect(booked.flight.conditions).toEqual(offer.conditions);
    expect(quote.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund: quote.body.data.refund });
    expect(await soldOn(offer)).toEqual(segmentsOf(offer).map(() => 0));
  });

  it('names the path of a tampered later journey (409 FLIGHT_MISMATCH) and takes no seat', async () => {
    const [offer] = await multiCity('three');
    const moved = structuredClone(offer);
    moved.slices[1].segments[0].flight_number = 'XX1';

    const answer = await book(session, { ...bookingBody(offer), flight_details: moved });
    const missing = await book(session, {
      ...bookingBody(offer),
      flight_details: { ...offer, slices: undefined },
    });

    expect(answer.status).toBe(409);
    expect(answer.body.error.details).toEqual([
      {
        path: 'flight_details.slices.1.segments.0.flight_number',
        expected: offer.slices[1].segments[0].flight_number,
        received: 'XX1',
      },
    ]);
    expect(missing.body.error.details).toEqual([
      { path: 'flight_details.slices', expected: 3, received: 'absent' },
    ]);
    expect(await soldOn(offer)).toEqual(segmentsOf(offer).map(() => 0));
  });

  it('answers SOLD_OUT when the last journey is full, and takes no seat on the others', async () => {
    const [offer] = await multiCity('three', { travel_class: 'BUSINESS' });
    const last = segmentsOf(offer).at(-1);
    await sellSeats(last.flight_number, dayOf(last), 200, 'J');

    const answer = await book(session, bookingBody(offer));

    expect(answer.body.error.code).toBe('SOLD_OUT');
    expect((await soldOn(offer, 'J')).slice(0, -1)).toEqual(
      segmentsOf(offer)
        .slice(0, -1)
        .map(() => 0),
    );
  });

  it('answers PRICE_CHANGED with a fresh multi-city offer, every journey kept, that books as is', async () => {
    const [offer] = await multiCity('three');
    const middle = offer.slices[1].segments[0];
    await sellSeats(middle.flight_number, dayOf(middle), 60);

    const changed = await book(session, bookingBody(offer));
    const fresh = changed.body.error?.details?.flight;
    const booked = await book(session, { ...bookingBody(fresh), flight_details: fresh });

    expect(changed.body.error.code).toBe('PRICE_CHANGED');
    expect(fresh.slices.map((s: Json) => s.segments)).toEqual(offer.slices.map((s: Json) => s.segments));
    expect(fresh).not.toHaveProperty('inbound');
    expect(fresh.total_price).toBeGreaterThan(offer.total_price);
    expect(booked.status).toBe(201);
    expect(await seatsSold(middle.flight_number, dayOf(middle))).toBe(61);
  });

  it('holds every journey, confirms it, and a lapsed hold gives every journey’s seats back', async () => {
    const [kept, lapsed] = await multiCity('three');
    const before = await soldOn(lapsed);

    const held = await book(session, { ...bookingBody(kept), hold: true });
    const toLapse = await book(session, { ...bookingBody(lapsed), hold: true });
    const confirmed = await call(confirm, 'confirm', {
      booking_id: held.body.data.booking_id,
      total_price: held.body.data.total_price,
      currency: held.body.data.currency,
    });

    expect(held.body.data.status).toBe('HELD');
    expect(confirmed.body.data.status).toBe('CONFIRMED');
    expect(confirmed.body.data.flight.slices).toEqual(kept.slices);
    expect(await soldOn(lapsed)).toEqual(before.map((n, i) => n + 1 + sharedWith(kept, lapsed, i)));
    advance(24 * HOUR + 1000);
    session = await signIn({ agencyId });
    await sweep();
    const expired = await call(get, 'get', { booking_id: toLapse.body.data.booking_id });
    expect(expired.body.data.status).toBe('EXPIRED');
    expect(await soldOn(lapsed)).toEqual(before.map((n, i) => n + sharedWith(kept, lapsed, i)));
  });
});

/** 1 when the kept booking flies segment `i` of the lapsed one too (their seats stay taken). */
function sharedWith(kept: Json, lapsed: Json, i: number): number {
  const segment = segmentsOf(lapsed)[i];
  return segmentsOf(kept).some(
    (s) => s.flight_number === segment.flight_number && s.departure_at === segment.departure_at,
  )
    ? 1
    : 0;
}
