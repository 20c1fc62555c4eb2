import { describe, expect, it } from 'vitest';
import { baseFare, fareBuckets, partyFare, quoteBucket, seatsFor } from '#shared/flights/fares.ts';

const economy = fareBuckets('ECONOMY', 150, 10_000);

describe('fares', () => {
  it('grows with distance and cabin, in whole euros', () => {
    const short = baseFare(350, 'ECONOMY', 'BA');
    const long = baseFare(5555, 'ECONOMY', 'BA');
    expect(long).toBeGreaterThan(short);
    expect(baseFare(5555, 'PREMIUM_ECONOMY', 'BA')).toBeGreaterThan(long);
    expect(baseFare(5555, 'BUSINESS', 'BA')).toBeGreaterThan(baseFare(5555, 'PREMIUM_ECONOMY', 'BA'));
    expect(baseFare(5555, 'FIRST', 'BA')).toBeGreaterThan(baseFare(5555, 'BUSINESS', 'BA'));
    for (const fare of [short, long]) expect(fare % 100).toBe(0);
  });

  it('has 4 to 6 nested buckets per cabin, cheapest first, the last covering the whole cabin', () => {
    for (const [travelClass, capacity] of [
      ['ECONOMY', 210],
      ['PREMIUM_ECONOMY', 28],
      ['BUSINESS', 42],
      ['FIRST', 8],
    ] as const) {
      const buckets = fareBuckets(travelClass, capacity, 50_000);
      expect(buckets.length).toBeGreaterThanOrEqual(4);
      expect(buckets.length).toBeLessThanOrEqual(6);
      expect(buckets.at(-1)?.limit).toBe(capacity);
      for (let i = 1; i < buckets.length; i++) {
        expect(buckets[i]?.limit).toBeGreaterThanOrEqual(buckets[i - 1]?.limit ?? 0);
        expect(buckets[i]?.fare).toBeGreaterThan(buckets[i - 1]?.fare ?? 0);
      }
    }
  });

  it('quotes the cheapest bucket that still holds the whole party', () => {
    expect(economy.map((b) => b.limit)).toEqual([30, 60, 90, 113, 135, 150]);

    expect(quoteBucket(economy, 0, 1)?.index).toBe(0);
    expect(quoteBucket(economy, 29, 1)?.index).toBe(0);
    expect(quoteBucket(economy, 29, 2)?.index).toBe(1);
    expect(quoteBucket(economy, 30, 1)?.index).toBe(1);
    expect(quoteBucket(economy, 140, 9)?.index).toBe(5);
    expect(quoteBucket(economy, 149, 1)?.index).toBe(5);
  });

  it('quotes nothing when the cabin cannot seat the party', () => {
    expect(quoteBucket(economy, 150, 1)).toBeUndefined();
    expect(quoteBucket(economy, 145, 6)).toBeUndefined();
  });

  it('never lowers the fare as seats sell', () => {
    let previous = 0;
    for (let sold = 0; sold < 150; sold++) {
      const fare = quoteBucket(economy, sold, 1)?.fare ?? 0;
      expect(fare).toBeGreaterThanOrEqual(previous);
      previous = fare;
    }
  });

  it('charges children 75% of the adult fare and lap infants none (taxes only); infants need no seat', () => {
    expect(partyFare(40_000, { adults: 0, children: 1, infants: 0 })).toBe(30_000);
    expect(partyFare(40_000, { adults: 0, children: 0, infants: 1 })).toBe(0);
    expect(partyFare(40_000, { adults: 2, children: 1, infants: 1 })).toBe(80_000 + 30_000);
    expect(seatsFor({ adults: 2, children: 1, infants: 1 })).toBe(3);
  });
});
