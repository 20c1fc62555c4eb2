import { describe, expect, it } from 'vitest';
import { greatCircleKm } from '#shared/flights/airports.ts';
import { flightDateKey } from '#shared/flights/inventory-item.ts';
import { findItineraries } from '#shared/flights/itineraries.ts';
import { priceItinerary } from '#shared/flights/pricing.ts';
import { rankItineraries, selectForPricing } from '#shared/flights/ranking.ts';

/** The longest detour a connection may make, as a share of the direct distance (docs/flights.md). */
const MAX_DETOUR = 1.5;

const date = '2026-12-01';
const all = { maxConnections: 1 as const, earliestDeparture: 0 };
const one = { adults: 1, children: 0, infants: 0 };
const minutes = (ms: number) => ms / 60_000;

describe('findItineraries', () => {
  const lhrJfk = findItineraries('LHR', 'JFK', date, all);

  it('offers the direct flights and one-stop connections', () => {
    expect(lhrJfk.filter((it) => it.length === 1).length).toBe(14);
    expect(lhrJfk.filter((it) => it.length === 2).length).toBeGreaterThan(10);
  });

  it('connects at the same airport after 60 minutes to 6 hours, within the detour limit', () => {
    for (const [first, second] of lhrJfk.filter((it) => it.length === 2)) {
      if (!first || !second) throw new Error('two segments expected');
      expect(second.leg.origin.code).toBe(first.leg.destination.code);
      const gap = minutes(second.departureAt - first.arrivalAt);
      expect(gap).toBeGreaterThanOrEqual(60);
      expect(gap).toBeLessThanOrEqual(360);
      expect(first.leg.distanceKm + second.leg.distanceKm).toBeLessThanOrEqual(
        MAX_DETOUR * greatCircleKm(first.leg.origin, second.leg.destination),
      );
    }
  });

  it('offers only direct flights when max_connections is 0', () => {
    const direct = findItineraries('LHR', 'JFK', date, { ...all, maxConnections: 0 });
    expect(direct.length).toBe(14);
    expect(direct.every((it) => it.length === 1)).toBe(true);
  });

  it('finds one-stop journeys where no direct flight exists (London to Sydney)', () => {
    const lhrSyd = findItineraries('LHR', 'SYD', date, all);
    const via = new Set(lhrSyd.map((it) => it[0]?.leg.destination.code));
    expect(lhrSyd.every((it) => it.length === 2)).toBe(true);
    for (const hub of ['SIN', 'DXB', 'DOH', 'HKG']) expect(via).toContain(hub);
  });

  it('does not offer flights leaving before the earliest departure', () => {
    const cutoff = Date.UTC(2026, 11, 1, 15, 0);
    const later = findItineraries('LHR', 'JFK', date, { maxConnections: 1, earliestDeparture: cutoff });
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((it) => (it[0]?.departureAt ?? 0) >= cutoff)).toBe(true);
  });

  it('finds nothing between airports the network does not serve', () => {
    expect(findItineraries('AAA', 'AAB', date, all)).toEqual([]);
  });
});

describe('selectForPricing', () => {
  it('drops itineraries whose aircraft lack the cabin', () => {
    const shortHaul = findItineraries('LHR', 'CDG', date, all);
    expect(selectForPricing(shortHaul, 'PRICE', 'FIRST', one).itineraries).toEqual([]);
    expect(selectForPricing(shortHaul, 'PRICE', 'BUSINESS', one).itineraries.length).toBeGreaterThan(0);
  });

  it('stops at the flight-date budget, keeping the best candidates for the sort', () => {
    const found = findItineraries('LHR', 'JFK', date, all);
    const { itineraries, flightDates } = selectForPricing(found, 'DEPARTURE', 'ECONOMY', one, 10);

    expect(flightDates.length).toBeLessThanOrEqual(10);
    const keys = new Set(flightDates.map(flightDateKey));
    for (const it of itineraries) for (const f of it) expect(keys.has(flightDateKey(f))).toBe(true);
    const earliest = Math.min(...found.map((it) => it[0]?.departureAt ?? 0));
    expect(itineraries[0]?.[0]?.departureAt).toBe(earliest);
  });
});

describe('priceItinerary', () => {
  const [direct] = findItineraries('LHR', 'JFK', date, { ...all, maxConnections: 0 });
  const connection = findItineraries('LHR', 'JFK', date, all).find((it) => it.length === 2);
  if (!direct || !connection) throw new Error('fixtures missing');
  const key = flightDateKey(direct[0] ?? { flightNumber: '', date });

  it('prices an unsold flight at its cheapest bucket and shows at most 9 seats', () => {
    const priced = priceItinerary(direct, 'ECONOMY', one, new Map());
    expect(priced?.buckets).toEqual([0]);
    expect(priced?.seatsLeft).toBe(210);
  });

  it('moves to a dearer bucket as seats sell, and to nothing when the cabin is full', () => {
    const cheap = priceItinerary(direct, 'ECONOMY', one, new Map());
    const dearer = priceItinerary(direct, 'ECONOMY', one, new Map([[key, 100]]));
    const full = priceItinerary(direct, 'ECONOMY', one, new Map([[key, 210]]));
    const tooFewForTwo = priceItinerary(
      direct,
      'ECONOMY',
      { adults: 2, children: 0, infants: 0 },
      new Map([[key, 209]]),
    );

    expect(dearer?.total).toBeGreaterThan(cheap?.total ?? 0);
    expect(dearer?.seatsLeft).toBe(110);
    expect(full).toBeUndefined();
    expect(tooFewForTwo).toBeUndefined();
  });

  it('sums the segment fares of a connection and shows the seats of its fullest segment', () => {
    const [a, b] = connection;
    const sold = new Map([[flightDateKey(b ?? a ?? { flightNumber: '', date }), 5]]);
    const priced = priceItinerary(connection, 'ECONOMY', one, sold);
    const alone = [a, b].map((f) => (f ? (priceItinerary([f], 'ECONOMY', one, sold)?.total ?? 0) : 0));

    expect(priced?.total).toBe((alone[0] ?? 0) + (alone[1] ?? 0));
    expect(priced?.seatsLeft).toBe(
      Math.min(...[a, b].map((f) => (f?.leg.aircraft.seats.ECONOMY ?? 0) - (f === b ? 5 : 0))),
    );
  });
});

describe('rankItineraries', () => {
  const priced = findItineraries('LHR', 'JFK', date, all).flatMap(
    (it) => priceItinerary(it, 'ECONOMY', one, new Map()) ?? [],
  );

  it('sorts by price, duration or departure and cuts to the limit', () => {
    const byPrice = rankItineraries(priced, 'PRICE', 20);
    const byDuration = rankItineraries(priced, 'DURATION', 20);
    const byDeparture = rankItineraries(priced, 'DEPARTURE', 5);
    const duration = (p: (typeof priced)[number] | undefined) =>
      (p?.segments.at(-1)?.arrivalAt ?? 0) - (p?.segments[0]?.departureAt ?? 0);

    expect(byPrice).toHaveLength(20);
    expect(byDeparture).toHaveLength(5);
    for (let i = 1; i < byPrice.length; i++) {
      expect(byPrice[i]?.total ?? 0).toBeGreaterThanOrEqual(byPrice[i - 1]?.total ?? 0);
      expect(duration(byDuration[i])).toBeGreaterThanOrEqual(duration(byDuration[i - 1]));
    }
    for (let i = 1; i < byDeparture.length; i++) {
      expect(byDeparture[i]?.segments[0]?.departureAt ?? 0).toBeGreaterThanOrEqual(
        byDeparture[i - 1]?.segments[0]?.departureAt ?? 0,
      );
    }
    expect(byDuration[0]?.segments).toHaveLength(1);
  });
});
