import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '#shared/flights/local-time.ts';
import { scheduledFlight } from '#shared/flights/schedule.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  agencyBookings,
  book,
  bookingBody,
  type Json,
  searchOffers,
  seatsSold,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

let session: TestSession;
let advance: (ms: number) => void;
let date: string;
let back: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
  back = addDays(date, 7);
});

afterEach(() => {
  vi.restoreAllMocks();
  context.db.middlewareStack.remove('fault');
});

const roundTrips = (s: TestSession, body: Record<string, unknown> = {}) =>
  searchOffers(s, { departure_date: date, return_date: back, ...body });
const outNumber = (offer: Json) => offer.outbound.segments[0].flight_number;
const inNumber = (offer: Json) => offer.inbound.segments[0].flight_number;

const sold = seatsSold;
const sell = sellSeats;

const call = (handler: typeof get, body: unknown, who = session) =>
  invoke(handler, { path: '/api/flights/booking/x', headers: who.headers, body });

describe('fn: booking create, round trips', () => {
  it('books both directions in one step: the seats of every segment, one booking showing both ways', async () => {
    const [offer] = await roundTrips(session, { adults: 2 });

    const answer = await book(session, bookingBody(offer));

    expect(answer.status).toBe(201);
    expect(answer.body.data.flight).toEqual(offer);
    expect(answer.body.data.flight.inbound.segments[0].origin).toBe('JFK');
    expect(await sold(outNumber(offer), date)).toBe(2);
    expect(await sold(inNumber(offer), back)).toBe(2);
    const fetched = await call(get, { booking_id: answer.body.data.booking_id });
    const listed = await call(list, {});
    expect(fetched.body.data.flight.inbound).toEqual(offer.inbound);
    expect(listed.body.data[0].flight.inbound).toEqual(offer.inbound);
  });

  it('names the path of a tampered inbound segment (409 FLIGHT_MISMATCH)', async () => {
    const [offer] = await roundTrips(session);
    const moved = structuredClone(offer);
    moved.inbound.segments[0].departure_at = '2030-01-01T00:00:00Z';

    const answer = await book(session, { ...bookingBody(offer), flight_details: moved });

    expect(answer.status).toBe(409);
    expect(answer.body.error.details).toEqual([
      {
        path: 'flight_details.inbound.segments.0.departure_at',
        expected: offer.inbound.segments[0].departure_at,
        received: '2030-01-01T00:00:00Z',
      },
    ]);
    expect(await sold(outNumber(offer), date)).toBe(0);
  });

  it('refuses a round-trip offer sent without its inbound, and a one-way offer sent with one', async () => {
    const [trip] = await roundTrips(session);
    const [single] = await searchOffers(session, { departure_date: date });
    const { inbound: _dropped, ...withoutInbound } = trip;

    const missing = await book(session, { ...bookingBody(trip), flight_details: withoutInbound });
    const extra = await book(session, {
      ...bookingBody(single),
      flight_details: { ...single, inbound: trip.inbound },
    });

    expect(missing.body.error.details).toEqual([
      { path: 'flight_details.inbound', expected: 'present', received: 'absent' },
    ]);
    expect(extra.body.error.details).toEqual([
      { path: 'flight_details.inbound', expected: 'absent', received: 'present' },
    ]);
  });

  it('judges ages on the first departure: a child who turns 12 before the way back is still a CHILD', async () => {
    const [offer] = await roundTrips(session, { adults: 1, children: 1 });
    const body = bookingBody(offer, { adults: 1, children: 1 });
    const child = {
      ...body.passengers[1],
      born_on: `${Number(date.slice(0, 4)) - 12}-${addDays(date, 3).slice(5)}`,
    };

    const answer = await book(session, { ...body, passengers: [body.passengers[0], child] });

    expect(answer.status).toBe(201);
  });

  it('answers SOLD_OUT when the inbound flight is full, and takes no outbound seat', async () => {
    const [offer] = await roundTrips(session, { travel_class: 'FIRST' });
    await sell(inNumber(offer), back, 100, 'F');

    const answer = await book(session, bookingBody(offer));

    expect(answer.body.error.code).toBe('SOLD_OUT');
    expect(await sold(outNumber(offer), date, 'F')).toBe(0);
  });

  it('answers PRICE_CHANGED with a fresh round-trip offer that books as is', async () => {
    const [offer] = await roundTrips(session);
    await sell(inNumber(offer), back, 60);

    const changed = await book(session, bookingBody(offer));
    const fresh = changed.body.error?.details?.flight;
    const booked = await book(session, bookingBody(fresh));

    expect(changed.body.error.code).toBe('PRICE_CHANGED');
    expect(fresh.inbound.segments).toEqual(offer.inbound.segments);
    expect(fresh.total_price).toBeGreaterThan(offer.total_price);
    expect(booked.status).toBe(201);
    expect(await sold(inNumber(offer), back)).toBe(61);
  });

  it('never oversells the inbound leg: 6 agents race for its last 2 first-class seats, 2 book, no outbound seat lost', async () => {
    const agents = await Promise.all(Array.from({ length: 6 }, () => signIn({ agencyId: 'inbound-racers' })));
    const [target] = await roundTrips(agents[0] as TestSession, { travel_class: 'FIRST' });
    const seats = scheduledFlight(inNumber(target), back)?.leg.aircraft.seats.FIRST ?? 0;
    expect(seats).toBeGreaterThan(2);
    await sell(inNumber(target), back, seats - 2, 'F');

    const outcomes = await Promise.all(
      agents.map(async (agent) => {
        let offer = (await roundTrips(agent, { travel_class: 'FIRST' })).find(
          (o: Json) => outNumber(o) === outNumber(target) && inNumber(o) === inNumber(target),
        );
        for (let i = 0; i < 10 && offer; i++) {
          const answer = await book(agent, bookingBody(offer));
          if (answer.status !== 409 || answer.body.error.code !== 'PRICE_CHANGED')
            return answer.body.error?.code ?? 'BOOKED';
          offer = answer.body.error.details.flight;
        }
        return offer ? 'GAVE_UP' : 'NOT_OFFERED';
      }),
    );

    const booked = outcomes.filter((o) => o === 'BOOKED').length;
    expect(booked).toBe(2);
    expect(outcomes.filter((o) => o !== 'BOOKED').every((o) => o === 'SOLD_OUT' || o === 'NOT_OFFERED')).toBe(
      true,
    );
    expect(await sold(inNumber(target), back, 'F')).toBe(seats);
    expect(await sold(outNumber(target), date, 'F')).toBe(2);
    expect(await agencyBookings('inbound-racers')).toHaveLength(2);
  });

  it('leaves nothing behind when the transaction fails (503), and the retry books once', async () => {
    const [offer] = await roundTrips(session);
    context.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === 'TransactWriteItemsCommand')
          throw Object.assign(new Error('Rate exceeded'), {
            name: 'ThrottlingException',
            $fault: 'client',
            $metadata: {},
          });
        return next(args);
      },
      { step: 'initialize', name: 'fault' },
    );

    const failed = await book(session, bookingBody(offer));
    context.db.middlewareStack.remove('fault');
    const retried = await book(session, bookingBody(offer));

    expect(failed.status).toBe(503);
    expect(retried.status).toBe(201);
    expect(await sold(outNumber(offer), date)).toBe(1);
    expect(await sold(inNumber(offer), back)).toBe(1);
    expect(await agencyBookings(session.agent.agency_id)).toHaveLength(1);
  });
});

describe('fn: booking cancel, round trips', () => {
  it('returns the seats of both directions in one step', async () => {
    const [offer] = await roundTrips(session, { adults: 3 });
    const booking = (await book(session, bookingBody(offer))).body.data;
    advance(60_000);

    const answer = await call(cancel, { booking_id: booking.booking_id });

    expect(answer.body.data.status).toBe('CANCELLED');
    expect(await sold(outNumber(offer), date)).toBe(0);
    expect(await sold(inNumber(offer), back)).toBe(0);
  });

  it('is no longer possible after the first departure, though the way back is still ahead', async () => {
    const [offer] = await roundTrips(session);
    const booking = (await book(session, bookingBody(offer))).body.data;
    advance(Date.parse(offer.outbound.segments[0].departure_at) - Date.UTC(2026, 11, 1, 9, 0, 0));
    const later = await signIn({ agencyId: session.agent.agency_id });

    const answer = await call(cancel, { booking_id: booking.booking_id }, later);

    expect(answer.body.error.code).toBe('NOT_CANCELLABLE');
    expect(await sold(inNumber(offer), back)).toBe(1);
  });
});
