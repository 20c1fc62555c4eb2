import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricedItinerary } from '#shared/flights/flight-view.ts';
import { findItineraries } from '#shared/flights/itineraries.ts';
import { priceItinerary } from '#shared/flights/pricing.ts';
import { bestCombinations } from '#shared/flights/round-trips.ts';
import type { ScheduledFlight } from '#shared/flights/schedule.ts';
import type { SortOrder } from '#shared/flights/search-request.ts';

/** The shortest stay before the way back, or the next journey (docs/flights.md). */
const MIN_TURNAROUND_MINUTES = 120;
/** The orders a search may ask for (API.md, flight search). */
const SORTS: SortOrder[] = ['PRICE', 'DURATION', 'DEPARTURE'];

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

/** Round trips as search finds them: {@link bestCombinations} of the two directions. */
function bestRoundTrips(
  outbound: readonly PricedItinerary[],
  inbound: readonly PricedItinerary[],
  sort: SortOrder,
  limit: number,
) {
  const { combinations, stats } = bestCombinations([outbound, inbound], sort, limit);
  return { pairs: combinations as [PricedItinerary, PricedItinerary][], examined: stats.examined };
}

describe('bestCombinations of two directions (round trips)', () => {
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

describe('bestCombinations', () => {
  const flight = (n: number, departure: number, minutes: number) =>
    ({
      flightNumber: `XX${n}`,
      departureAt: departure,
      arrivalAt: departure + minutes * 60_000,
    }) as ScheduledFlight;
  const list = (journey: number) =>
    fc
      .array(
        fc.record({
          departure: fc.integer({ min: 0, max: 30 }),
          minutes: fc.constantFrom(60, 90, 300),
          total: fc.constantFrom(10_000, 15_000, 20_000),
        }),
        { maxLength: 6 },
      )
      .map((items) =>
        items.map(
          (x, i): PricedItinerary => ({
            segments: [flight(journey * 100 + i, (journey * 8 + x.departure) * HOUR, x.minutes)],
            buckets: [0],
            total: x.total,
            seatsLeft: 9,
          }),
        ),
      );
  const keyOf = (combination: readonly PricedItinerary[]) =>
    combination.map((it) => it.segments.map((s) => s.flightNumber).join('+')).join('|');

  /** Every combination built, the 2-hour gaps kept, fully sorted. */
  function bruteForce(journeys: PricedItinerary[][], sort: SortOrder, limit: number) {
    let all: PricedItinerary[][] = [[]];
    for (const items of journeys) all = all.flatMap((c) => items.map((it) => [...c, it]));
    const first = (p: PricedItinerary) => p.segments[0]?.departureAt ?? 0;
    const last = (p: PricedItinerary) => p.segments.at(-1)?.arrivalAt ?? 0;
    const valid = all.filter((c) =>
      c.every((it, j) => j === 0 || first(it) >= last(c[j - 1] as PricedItinerary) + 2 * HOUR),
    );
    const total = (c: PricedItinerary[]) => c.reduce((n, it) => n + it.total, 0);
    const duration = (c: PricedItinerary[]) => c.reduce((n, it) => n + last(it) - first(it), 0);
    const deps = (a: PricedItinerary[], b: PricedItinerary[]) => {
      for (let j = 0; j < a.length; j++) {
        const d = first(a[j] as PricedItinerary) - first(b[j] as PricedItinerary);
        if (d) return d;
      }
      return 0;
    };
    const orders: Record<SortOrder, (a: PricedItinerary[], b: PricedItinerary[]) => number> = {
      PRICE: (a, b) => total(a) - total(b) || duration(a) - duration(b) || deps(a, b),
      DURATION: (a, b) => duration(a) - duration(b) || total(a) - total(b) || deps(a, b),
      DEPARTURE: (a, b) => deps(a, b) || total(a) - total(b) || duration(a) - duration(b),
    };
    return valid
      .sort((a, b) => orders[sort](a, b) || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))
      .slice(0, limit);
  }

  it('property: for 2 to 5 journeys, every order and limit, it equals building and sorting them all', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 5 })
          .chain((k) => fc.tuple(...Array.from({ length: k }, (_, j) => list(j)))),
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 40 }),
        (journeys, sort, limit) => {
          const found = bestCombinations(journeys, sort, limit);

          expect(found.combinations.map(keyOf)).toEqual(bruteForce(journeys, sort, limit).map(keyOf));
          expect(found.stats.examined).toBeLessThanOrEqual(found.stats.combinations);
          expect(found.stats.pushed).toBeLessThanOrEqual(found.stats.examined * journeys.length + 1);
        },
      ),
      { seed: 33, numRuns: 500 },
    );
  });

  it('examines a sliver of a six-journey trip on the real schedule, building only the limit', () => {
    const legs: [string, string, string][] = [
      ['LHR', 'JFK', '2026-12-01'],
      ['JFK', 'LAX', '2026-12-03'],
      ['LAX', 'SFO', '2026-12-05'],
      ['SFO', 'ORD', '2026-12-07'],
      ['ORD', 'BOS', '2026-12-09'],
      ['BOS', 'LHR', '2026-12-11'],
    ];
    const journeys = legs.map(([from, to, date]) => priced(from, to, date));

    const found = bestCombinations(journeys, 'PRICE', 50);

    expect(found.combinations).toHaveLength(50);
    expect(found.stats.combinations).toBeGreaterThan(1e8);
    expect(found.stats.examined).toBeLessThan(1000);
  });

  it('proves at once that six same-day transatlantic journeys cannot be flown, without walking their combinations', () => {
    const day = '2026-12-10';
    const cities = ['LHR', 'JFK', 'LHR', 'JFK', 'LHR', 'JFK', 'LHR'];
    const journeys = cities.slice(1).map((to, i) => priced(cities[i] as string, to, day));

    const found = bestCombinations(journeys, 'PRICE', 50);

    expect(found.combinations).toEqual([]);
    expect(found.stats.examined).toBeLessThan(100);
  });
});
