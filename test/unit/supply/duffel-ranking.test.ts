import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FlightView } from '#shared/flights/flight-view.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { flightFromOffer, offerRequestBody } from '#shared/supply/duffel/mapping.ts';
import { rankFlights } from '#shared/supply/duffel/ranking.ts';
import { offersFor } from '../../../infra/local/duffel-stand-in-data.ts';

/** A journey leaving at `leaves` (UTC, minutes after 2027-03-01T00:00Z) for `minutes`, on flight `number`. */
const journey = (leaves: number, minutes: number, number = 'ZZ1000') => {
  const at = (m: number) => new Date(Date.UTC(2027, 2, 1) + m * 60_000).toISOString().replace('.000', '');
  return {
    duration_minutes: minutes,
    stops: 0,
    segments: [
      {
        carrier_code: 'ZZ',
        carrier_name: 'Duffel Airways',
        flight_number: number,
        origin: 'LHR',
        destination: 'CDG',
        departure_at: at(leaves),
        arrival_at: at(leaves + minutes),
        duration_minutes: minutes,
      },
    ],
  };
};
/** A Flight of these journeys at `price`, with a name to tell it by. */
const flight = (id: string, price: number, ...slices: ReturnType<typeof journey>[]) =>
  ({ id, total_price: price, currency: 'GBP', slices, outbound: slices[0] }) as unknown as FlightView;
const ids = (flights: FlightView[]) => flights.map((f) => f.id);

describe('fn: rankFlights (Duffel), ties as documented (docs/flights.md)', () => {
  it('breaks a PRICE tie by duration before departure', () => {
    const early = flight('early-long', 100, journey(480, 200));
    const late = flight('late-short', 100, journey(600, 90));

    expect(ids(rankFlights([early, late], 'PRICE', 10))).toEqual(['late-short', 'early-long']);
  });

  it('breaks a PRICE tie of equal durations by departure, then by flight numbers', () => {
    const late = flight('late', 100, journey(600, 90, 'ZZ1001'));
    const second = flight('second', 100, journey(480, 90, 'ZZ1002'));
    const first = flight('first', 100, journey(480, 90, 'ZZ1001'));

    expect(ids(rankFlights([late, second, first], 'PRICE', 10))).toEqual(['first', 'second', 'late']);
  });

  it('breaks a DURATION tie by price, then departure', () => {
    const dear = flight('dear', 120, journey(480, 90));
    const lateCheap = flight('late-cheap', 100, journey(600, 90));
    const earlyCheap = flight('early-cheap', 100, journey(540, 90));

    expect(ids(rankFlights([dear, lateCheap, earlyCheap], 'DURATION', 10))).toEqual([
      'early-cheap',
      'late-cheap',
      'dear',
    ]);
  });

  it('breaks a DEPARTURE tie by price, then duration', () => {
    const long = flight('long', 100, journey(480, 200));
    const dear = flight('dear', 150, journey(480, 60));
    const short = flight('short', 100, journey(480, 90));

    expect(ids(rankFlights([long, dear, short], 'DEPARTURE', 10))).toEqual(['short', 'long', 'dear']);
  });

  it('orders DEPARTURE journey by journey', () => {
    const laterSecond = flight('later-second', 100, journey(480, 60), journey(900, 60));
    const earlierSecond = flight('earlier-second', 200, journey(480, 60), journey(800, 60));

    expect(ids(rankFlights([laterSecond, earlierSecond], 'DEPARTURE', 10))).toEqual([
      'earlier-second',
      'later-second',
    ]);
  });
});

describe('fn: rankFlights (Duffel), the 2-hour rule between journeys (docs/API.md §4.1)', () => {
  it('leaves out an offer whose next journey leaves under 2 hours after the last one lands, before the limit', () => {
    // The first journey lands at 09:00 UTC.
    const tight = flight('tight', 50, journey(480, 60), journey(659, 60));
    const exact = flight('exact', 100, journey(480, 60), journey(660, 60));
    const wide = flight('wide', 150, journey(480, 60), journey(900, 60));
    const before = flight('before', 10, journey(480, 60), journey(400, 60));

    expect(ids(rankFlights([tight, exact, wide, before], 'PRICE', 2))).toEqual(['exact', 'wide']);
    expect(ids(rankFlights([tight, exact, wide, before], 'PRICE', 10))).toEqual(['exact', 'wide']);
  });

  it('keeps only the stand-in’s same-day multi-city offers that leave 2 hours between journeys', () => {
    const now = Date.UTC(2027, 2, 1, 12);
    const body = createSearchRequest({ now: () => now }).parse({
      slices: [
        { origin: 'LHR', destination: 'CDG', departure_date: '2027-04-10' },
        { origin: 'CDG', destination: 'AMS', departure_date: '2027-04-10' },
      ],
    });
    const { offers } = offersFor(offerRequestBody(body), { currency: 'GBP', now, offerTtlSeconds: 1800 });
    const request = {
      agencyId: 'a1',
      travelClass: 'ECONOMY' as const,
      passengers: { adults: 1, children: 0, infants: 0 },
      now,
      multiCity: true,
    };
    const flights = offers.flatMap((o) => flightFromOffer(o, request, randomBytes(32))?.flight ?? []);

    const ranked = rankFlights(flights, 'PRICE', 50);

    expect(flights).toHaveLength(9);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.length).toBeLessThan(9);
    for (const f of ranked) {
      const landed = Date.parse(f.slices[0]?.segments.at(-1)?.arrival_at ?? '');
      expect(Date.parse(f.slices[1]?.segments[0]?.departure_at ?? '') - landed).toBeGreaterThanOrEqual(
        7_200_000,
      );
    }
  });
});
