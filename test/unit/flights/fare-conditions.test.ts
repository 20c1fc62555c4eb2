import { describe, expect, it } from 'vitest';
import { TRAVEL_CLASSES } from '#shared/flights/cabins.ts';
import { networkConditionsByJourney, refundUnder } from '#shared/flights/fare-conditions.ts';
import {
  baseFare,
  bucketConditions,
  fareBuckets,
  NOT_ALLOWED,
  partyFare,
  seatsFor,
} from '#shared/flights/fares.ts';
import { networkRoutes } from '#shared/flights/network.ts';
import { legBetween } from '#shared/flights/schedule.ts';

/** A trip's summary of its journeys' conditions. */
const networkConditions = (...args: Parameters<typeof networkConditionsByJourney>) =>
  networkConditionsByJourney(...args).trip;

const one = { adults: 1, children: 0, infants: 0 };
const family = { adults: 2, children: 1, infants: 1 };
const child = { adults: 0, children: 1, infants: 0 };
const bucketCount = (travelClass: (typeof TRAVEL_CLASSES)[number]) =>
  fareBuckets(travelClass, 100, 10_000).length;

describe('fare conditions: the table', () => {
  it('has a row for every bucket of every cabin, and none past the last', () => {
    for (const travelClass of TRAVEL_CLASSES) {
      const count = bucketCount(travelClass);
      for (let i = 0; i < count; i++) {
        const row = bucketConditions(travelClass, i);
        for (const penalty of [row.refund, row.change]) {
          if (penalty !== NOT_ALLOWED) expect(penalty).toBeGreaterThanOrEqual(0);
        }
      }
      expect(bucketConditions(travelClass, count)).toEqual({ refund: NOT_ALLOWED, change: NOT_ALLOWED });
    }
  });

  it('makes the cheapest buckets non-refundable, the others refundable at a penalty, FIRST and the top free', () => {
    for (const travelClass of ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS'] as const) {
      const count = bucketCount(travelClass);
      const refunds = Array.from({ length: count }, (_, i) => bucketConditions(travelClass, i).refund);
      expect(refunds[0]).toBe(NOT_ALLOWED);
      expect(refunds.at(-1)).toBe(0);
      const refundable = refunds.filter((r) => r !== NOT_ALLOWED);
      expect(refundable.slice(0, -1).every((r) => (r ?? 0) > 0)).toBe(true);
      // Dearer buckets never cost more to refund.
      for (let i = 1; i < refundable.length; i++) {
        expect(refundable[i] ?? 0).toBeLessThanOrEqual(refundable[i - 1] ?? 0);
      }
    }
    for (let i = 0; i < bucketCount('FIRST'); i++) {
      expect(bucketConditions('FIRST', i)).toEqual({ refund: 0, change: 0 });
    }
  });

  it('never charges a refund penalty above what a child pays for one flight of the bucket, on any route', () => {
    for (const route of networkRoutes()) {
      const leg = legBetween(route.a, route.b);
      if (!leg) continue;
      for (const travelClass of TRAVEL_CLASSES) {
        const capacity = leg.aircraft.seats[travelClass];
        if (!capacity) continue;
        for (const { carrier } of route.carriers) {
          const base = baseFare(leg.distanceKm, travelClass, carrier);
          for (const bucket of fareBuckets(travelClass, capacity, base)) {
            const { refund } = bucketConditions(travelClass, bucket.index);
            if (refund !== NOT_ALLOWED) expect(refund).toBeLessThan(partyFare(bucket.fare, child));
          }
        }
      }
    }
  });
});

describe('fare conditions: journeys and trips', () => {
  const allowed = (amount: number) => ({ allowed: true, penalty: { amount, currency: 'EUR' } });
  const refused = { allowed: false, penalty: null };

  it('gives a journey its most restrictive segment, the penalty per passenger with a seat', () => {
    // Economy buckets 2 and 4: refund 40 € and 20 €, change 25 € and 15 €; the family has 3 seats.
    expect(networkConditions('ECONOMY', [[4, 2]], family)).toEqual({
      refund_before_departure: allowed(40 * seatsFor(family)),
      change_before_departure: allowed(25 * 3),
    });
    // A non-refundable segment makes the journey non-refundable.
    expect(networkConditions('ECONOMY', [[5, 0]], one).refund_before_departure).toEqual(refused);
  });

  it('combines a trip as the most restrictive of its journeys, penalties summed', () => {
    expect(networkConditions('ECONOMY', [[2], [3]], one)).toEqual({
      refund_before_departure: allowed(40 + 30),
      change_before_departure: allowed(25 + 20),
    });
    expect(networkConditions('ECONOMY', [[2], [0], [3]], one).refund_before_departure).toEqual(refused);
    // Any number of journeys: six economy bucket-3 journeys cost six penalties.
    expect(
      networkConditions(
        'ECONOMY',
        Array.from({ length: 6 }, () => [3]),
        one,
      ).refund_before_departure,
    ).toEqual(allowed(6 * 30));
  });

  it('gives each journey its own conditions and the trip their summary (refund only if every journey allows it)', () => {
    // Economy bucket 2 refunds at 40 €, bucket 0 not at all; one journey's refusal makes the trip's.
    const { trip, journeys } = networkConditionsByJourney('ECONOMY', [[2], [0, 0], [3]], family);
    expect(journeys).toEqual([
      { refund_before_departure: allowed(40 * 3), change_before_departure: allowed(25 * 3) },
      { refund_before_departure: refused, change_before_departure: refused },
      { refund_before_departure: allowed(30 * 3), change_before_departure: allowed(20 * 3) },
    ]);
    expect(trip).toEqual({ refund_before_departure: refused, change_before_departure: refused });
    expect(networkConditionsByJourney('ECONOMY', [[2], [3]], family).trip).toEqual({
      refund_before_departure: allowed((40 + 30) * 3),
      change_before_departure: allowed((25 + 20) * 3),
    });
  });

  it('answers the Flight shape in major units, a free condition at 0 and a refused one without a penalty', () => {
    expect(networkConditions('ECONOMY', [[0], [5]], family)).toEqual({
      refund_before_departure: refused,
      change_before_departure: refused,
    });
    expect(networkConditions('FIRST', [[0, 3]], one)).toEqual({
      refund_before_departure: allowed(0),
      change_before_departure: allowed(0),
    });
  });
});

describe('fare conditions: what a cancel refunds', () => {
  it('refunds the price less the penalty, 0 where no refund is allowed, all where nothing was stated', () => {
    const penalty = networkConditions('ECONOMY', [[2]], one);
    expect(refundUnder(penalty, 100_00, 'EUR')).toBe(60_00);
    expect(refundUnder(penalty, 30_00, 'EUR')).toBe(0);
    expect(refundUnder(networkConditions('ECONOMY', [[1]], one), 100_00, 'EUR')).toBe(0);
    expect(refundUnder(networkConditions('FIRST', [[1]], one), 100_00, 'EUR')).toBe(100_00);
    const silent = { refund_before_departure: null, change_before_departure: null };
    expect(refundUnder(silent, 100_00, 'EUR')).toBe(100_00);
    expect(refundUnder(undefined, 100_00, 'EUR')).toBe(100_00);
  });
});
