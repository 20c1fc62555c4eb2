import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricedItinerary } from '#shared/flights/flight-view.ts';
import { findItineraries } from '#shared/flights/itineraries.ts';
import { priceItinerary } from '#shared/flights/pricing.ts';
import { bestRoundTrips, MIN_TURNAROUND_MINUTES } from '#shared/flights/round-trips.ts';
import type { ScheduledFlight } from '#shared/flights/schedule.ts';
import { SORTS, type SortOrder } from '#shared/flights/search-request.ts';

const HOUR = 3_600_000;
const one = { adults: 1, children: 0, infants: 0 };
const all = { maxConnections: 1 as const, earliestDeparture: 0 };

/** Priced itineraries of the real schedule, unsold. */
const priced = (from: string, to: string, date: string) =>
  findItineraries(from, to, date, all)
    .map((it) => priceItinerary(it, 'ECONOMY', one, new Map()))
    .filter((p): p is PricedItinerary => p !== undefined);

const key = ([out, back]: [PricedItinerary, PricedItinerary]) =>
  out.segments.map((s) => s.flightNumber).join('+') +
  '|' +
  back.segments.map((s) => s.flightNumber).join('+');

/** Every valid pair, fully sorted: what the frontier must reproduce without building it. */
function bruteForce(outs: PricedItinerary[], backs: PricedItinerary[], sort: SortOrder, limit: number) {
  const duration = (p: PricedItinerary) =>
    (p.segments.at(-1)?.arrivalAt ?? 0) - (p.segments[0]?.departureAt ?? 0);
  const dep = (p: PricedItinerary) => p.segments[0]?.departureAt ?? 0;
  const nums = (p: PricedItinerary) => p.segments.map((s) => s.flightNumber).join(' ');
  const pairs = outs.flatMap((o) =>
    backs
      .filter((b) => dep(b) >= (o.segments.at(-1)?.arrivalAt ?? 0) + MIN_TURNAROUND_MINUTES * 60_000)
      .map((b) => [o, b] as [PricedItinerary, PricedItinerary]),
  );
  const fields = ([o, b]: [PricedItinerary, PricedItinerary]) => ({
    total: o.total + b.total,
    duration: duration(o) + duration(b),
    out: dep(o),
    in: dep(b),
  });
  const orders: Record<SortOrder, (keyof ReturnType<typeof fields>)[]> = {
    PRICE: ['total', 'duration', 'out', 'in'],
    DURATION: ['duration', 'total', 'out', 'in'],
    DEPARTURE: ['out', 'in', 'total', 'duration'],
  };
  return pairs
    .sort((x, y) => {
      const [a, b] = [fields(x), fields(y)];
      for (const f of orders[sort]) if (a[f] !== b[f]) return a[f] - b[f];
      return nums(x[0]).localeCompare(nums(y[0])) || nums(x[1]).localeCompare(nums(y[1]));
    })
    .slice(0, limit);
}

describe('bestRoundTrips', () => {
  it.each(SORTS)(
    'finds exactly the best pairs a full sort would, by %s (LHR-JFK, back a week later)',
    (sort) => {
      const outs = priced('LHR', 'JFK', '2026-12-01');
      const backs = priced('JFK', 'LHR', '2026-12-08');

      const found = bestRoundTrips(outs, backs, sort, 50);

      expect(found.pairs.map(key)).toEqual(bruteForce(outs, backs, sort, 50).map(key));
      expect(found.examined).toBeLessThan((outs.length * backs.length) / 4);
    },
  );

  it('keeps a 2-hour turnaround on a same-day return, examining at most every pair', () => {
    const outs = priced('LHR', 'CDG', '2026-12-01');
    const backs = priced('CDG', 'LHR', '2026-12-01');

    const found = bestRoundTrips(outs, backs, 'PRICE', 100);

    expect(found.pairs.length).toBeGreaterThan(0);
    for (const [out, back] of found.pairs) {
      expect(
        (back.segments[0]?.departureAt ?? 0) - (out.segments.at(-1)?.arrivalAt ?? 0),
      ).toBeGreaterThanOrEqual(2 * HOUR);
    }
    expect(found.pairs.map(key)).toEqual(bruteForce(outs, backs, 'PRICE', 100).map(key));
    expect(found.examined).toBeLessThanOrEqual(outs.length * backs.length);
  });

  it('finds nothing when no inbound leaves late enough', () => {
    const outs = priced('LHR', 'JFK', '2026-12-01');
    const backs = priced('JFK', 'LHR', '2026-11-30');

    expect(bestRoundTrips(outs, backs, 'PRICE', 10).pairs).toEqual([]);
    expect(bestRoundTrips(outs, [], 'PRICE', 10).pairs).toEqual([]);
  });

  it('property: on random prices, durations and ties, it equals the full sort for every order and limit', () => {
    const flight = (n: number, departure: number, minutes: number) =>
      ({
        flightNumber: `XX${n}`,
        departureAt: departure,
        arrivalAt: departure + minutes * 60_000,
      }) as ScheduledFlight;
    const itinerary = (prefix: number) =>
      fc
        .record({
          departure: fc.integer({ min: 0, max: 48 }),
          minutes: fc.constantFrom(60, 90, 120, 400),
          total: fc.constantFrom(10_000, 15_000, 20_000, 25_000),
        })
        .map(({ departure, minutes, total }) => ({ departure, minutes, total, prefix }));
    const list = (prefix: number) =>
      fc.array(itinerary(prefix), { maxLength: 12 }).map((items) =>
        items.map(
          (x, i): PricedItinerary => ({
            segments: [flight(x.prefix * 100 + i, x.departure * HOUR, x.minutes)],
            buckets: [0],
            total: x.total,
            seatsLeft: 9,
          }),
        ),
      );

    fc.assert(
      fc.property(
        list(1),
        list(2),
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 30 }),
        (outs, backs, sort, limit) => {
          expect(bestRoundTrips(outs, backs, sort, limit).pairs.map(key)).toEqual(
            bruteForce(outs, backs, sort, limit).map(key),
          );
        },
      ),
      { seed: 13, numRuns: 400 },
    );
  });
});
