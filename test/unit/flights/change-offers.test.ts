import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BookedTrip,
  changeCost,
  type JourneyChange,
  searchChanges,
} from '#shared/flights/change-offers.ts';
import type { PricedItinerary } from '#shared/flights/flight-view.ts';
import { flightDateKey } from '#shared/flights/inventory-item.ts';
import { findItineraries, MIN_LEAD_MINUTES } from '#shared/flights/itineraries.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { priceItinerary, segmentPrice } from '#shared/flights/pricing.ts';
import type { SearchDeps } from '#shared/flights/search.ts';

const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const one = { adults: 1, children: 0, infants: 0 };
const GAP_MS = 120 * 60_000;

/** Deps whose table answers BatchGetItem from `sold` (flight-date key -> seats sold). */
function tableOf(sold: ReadonlyMap<string, number>): SearchDeps {
  const send = async (command: { input: { RequestItems: Record<string, { Keys: { pk: string }[] }> } }) => {
    const keys = command.input.RequestItems.t?.Keys ?? [];
    const items = keys.flatMap(({ pk }) => {
      const seats = sold.get(pk.slice('FLIGHT#'.length));
      return seats === undefined ? [] : [{ pk, sold_Y: seats }];
    });
    return { Responses: { t: items } };
  };
  return {
    db: { send } as unknown as SearchDeps['db'],
    tableName: 't',
    clock: { now: () => NOW },
    keys: { offer: new Uint8Array(32) },
  };
}

/**
 * A booked trip: each journey's first itinerary on its day, sold in bucket `bucket`, paid its price
 * there (taxes included) plus `paidShift` cents (a fare sold under another table: the rule counts what
 * was paid, not today's price of the bucket), with `extras` cents of bags and seats on each journey.
 */
function booked(
  journeys: { from: string; to: string; date: string }[],
  bucket: number,
  paidShift = 0,
  extras = 0,
): BookedTrip {
  const options = { maxConnections: 0 as const, earliestDeparture: 0 };
  return {
    travelClass: 'ECONOMY',
    passengers: one,
    multiCity: true,
    journeys: journeys.map((j) => {
      const [segments] = findItineraries(j.from, j.to, j.date, options);
      if (!segments) throw new Error(`no flight ${j.from}-${j.to} on ${j.date}`);
      const paid = segments.reduce((n, f) => n + segmentPrice(f, 'ECONOMY', bucket, one), paidShift);
      return { segments, buckets: segments.map(() => bucket), paid, extras };
    }),
  };
}

/**
 * The brute force: every itinerary of every changed journey (none on its own flights), priced against
 * `sold`, combined with the kept journeys in every way, the 2-hour rule checked, each priced by the
 * rule — the cheapest change_total, or undefined when none is valid.
 */
function cheapestByBruteForce(
  trip: BookedTrip,
  changes: readonly JourneyChange[],
  terms: { penalty: number; moneyBack: boolean },
  sold: ReadonlyMap<string, number>,
): number | undefined {
  const options = { maxConnections: 1 as const, earliestDeparture: NOW + MIN_LEAD_MINUTES * 60_000 };
  const columns: PricedItinerary[][] = trip.journeys.map((journey, j) => {
    const change = changes.find((c) => c.index === j);
    if (!change)
      return [{ segments: journey.segments, buckets: journey.buckets, total: journey.paid, seatsLeft: 9 }];
    const own = new Set(journey.segments.map(flightDateKey));
    return findItineraries(change.origin, change.destination, change.date, options)
      .filter((it) => !it.some((f) => own.has(flightDateKey(f))))
      .map((it) => priceItinerary(it, 'ECONOMY', one, sold))
      .filter((p): p is PricedItinerary => p !== undefined);
  });
  const soldAt = changes.reduce(
    (n, c) => n + (trip.journeys[c.index]?.paid ?? 0) + (trip.journeys[c.index]?.extras ?? 0),
    0,
  );
  let best: number | undefined;
  const walk = (j: number, chosen: PricedItinerary[]) => {
    if (j === columns.length) {
      const newPrice = changes.reduce((n, c) => n + (chosen[c.index]?.total ?? 0), 0);
      const total = changeCost(terms, soldAt, newPrice).changeTotal;
      best = best === undefined ? total : Math.min(best, total);
      return;
    }
    for (const it of columns[j] ?? []) {
      const before = chosen[j - 1]?.segments.at(-1)?.arrivalAt;
      if (before !== undefined && (it.segments[0]?.departureAt ?? 0) < before + GAP_MS) continue;
      walk(j + 1, [...chosen, it]);
    }
  };
  walk(0, []);
  return best;
}

const TRIP = [
  { from: 'LHR', to: 'JFK', date: '2026-12-10' },
  { from: 'JFK', to: 'LAX', date: '2026-12-13' },
  { from: 'LAX', to: 'LHR', date: '2026-12-16' },
];

describe('changeCost', () => {
  it('charges the penalty and the fare difference, and gives money back only where the fare allows it', () => {
    expect(changeCost({ penalty: 2500, moneyBack: true }, 40_000, 45_000)).toEqual({
      penalty: 2500,
      fareDifference: 5000,
      changeTotal: 7500,
    });
    expect(changeCost({ penalty: 2500, moneyBack: true }, 40_000, 30_000).changeTotal).toBe(-7500);
    expect(changeCost({ penalty: 2500, moneyBack: false }, 40_000, 30_000)).toEqual({
      penalty: 2500,
      fareDifference: 0,
      changeTotal: 2500,
    });
  });
});

describe('searchChanges', () => {
  it('property: the cheapest change offer is the cheapest valid re-combination, priced by the rule', async () => {
    const scenario = fc.record({
      bucket: fc.integer({ min: 0, max: 5 }),
      changed: fc.subarray([0, 1, 2], { minLength: 1 }),
      shifts: fc.tuple(
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: -2, max: 2 }),
      ),
      penalty: fc.constantFrom(0, 2500, 15_000),
      moneyBack: fc.boolean(),
      soldSeed: fc.integer({ min: 0, max: 1000 }),
      paidShift: fc.integer({ min: -5000, max: 5000 }),
      extras: fc.constantFrom(0, 0, 1500, 4200),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const trip = booked(TRIP, s.bucket, s.paidShift, s.extras);
        const changes = s.changed.map((index) => {
          const j = TRIP[index] ?? { from: '', to: '', date: '' };
          return { index, origin: j.from, destination: j.to, date: addDays(j.date, s.shifts[index] ?? 0) };
        });
        // Seats sold per flight-date from the seed: some full, most in some bucket.
        const sold = new Map<string, number>();
        const seatsOf = (key: string) => {
          let h = s.soldSeed;
          for (const c of key) h = (h * 31 + c.charCodeAt(0)) % 1_000_003;
          return h % 320;
        };
        for (const c of changes)
          for (const it of findItineraries(c.origin, c.destination, c.date, {
            maxConnections: 1,
            earliestDeparture: 0,
          }))
            for (const f of it) sold.set(flightDateKey(f), seatsOf(flightDateKey(f)));
        const terms = { penalty: s.penalty, moneyBack: s.moneyBack };

        const [first] = await searchChanges(tableOf(sold), trip, { changes, terms, sort: 'PRICE', limit: 1 });

        expect(first?.cost.changeTotal).toBe(cheapestByBruteForce(trip, changes, terms, sold));
      }),
      { seed: 41, numRuns: 60 },
    );
  });
});
