import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { servedAirports } from '#shared/flights/airports.ts';
import { TRAVEL_CLASSES } from '#shared/flights/cabins.ts';
import { networkFareBrand } from '#shared/flights/fare-details.ts';
import { combined, flightView, type PricedItinerary } from '#shared/flights/flight-view.ts';
import { flightDateKey } from '#shared/flights/inventory-item.ts';
import { findItineraries } from '#shared/flights/itineraries.ts';
import { networkRoutes } from '#shared/flights/network.ts';
import { priceItinerary } from '#shared/flights/pricing.ts';
import { departureTax } from '#shared/flights/taxes.ts';

/**
 * What a network fare includes (docs/API.md §4.1, docs/flights.md "Taxes" and "Baggage"): the price
 * breakdown's rows add up to the total to the cent for any party, cabin, route and sold seats.
 */
const all = { maxConnections: 1 as const, earliestDeparture: 0 };
const cents = (amount: number | null) => Math.round((amount ?? Number.NaN) * 100);
const parties = fc
  .record({
    adults: fc.integer({ min: 1, max: 9 }),
    children: fc.integer({ min: 0, max: 8 }),
    infants: fc.nat(9),
  })
  .map((p) => ({
    ...p,
    children: Math.min(p.children, 9 - p.adults),
    infants: Math.min(p.infants, p.adults),
  }));

describe('fn: networkPriceBreakdown', () => {
  it('rows sum to total_price to the cent, for random parties, cabins, routes (both ways) and sold seats', () => {
    const routes = networkRoutes();
    let checked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: routes.length - 1 }),
        fc.constantFrom(...TRAVEL_CLASSES),
        parties,
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (r, travelClass, pax, sold, day) => {
          const route = routes[r];
          if (!route) return;
          const date = `2027-03-${String((day % 28) + 1).padStart(2, '0')}`;
          const price = (from: string, to: string) =>
            findItineraries(from, to, date, all)
              .slice(0, 6)
              .map((it) =>
                priceItinerary(it, travelClass, pax, new Map(it.map((f) => [flightDateKey(f), sold]))),
              )
              .filter((p): p is PricedItinerary => p !== undefined);
          const out = price(route.a, route.b);
          const back = price(route.b, route.a);
          const offers = [...out.map((o) => [o]), ...out.flatMap((o) => back.slice(0, 2).map((b) => [o, b]))];
          for (const journeys of offers) {
            const flight = flightView(
              { id: 'off_x', expiresAt: 0, travelClass, passengers: pax },
              combined(journeys, false),
            );
            const rows = flight.price_breakdown;
            checked += 1;
            expect(rows.reduce((sum, row) => sum + cents(row.total), 0)).toBe(cents(flight.total_price));
            for (const row of rows) expect(cents(row.base) + cents(row.taxes)).toBe(cents(row.total));
            expect(rows.map((row) => [row.pax_type, row.count])).toEqual(
              [
                ['ADULT', pax.adults],
                ['CHILD', pax.children],
                ['INFANT', pax.infants],
              ].filter(([, count]) => (count as number) > 0),
            );
            // Infants pay taxes only; every passenger pays every departure's taxes.
            const infants = rows.find((row) => row.pax_type === 'INFANT');
            if (infants) expect(infants.base).toBe(0);
            const taxes = flight.slices
              .flatMap((s) => s.segments)
              .reduce((sum, s) => sum + departureTax(s.origin), 0);
            for (const row of rows) expect(cents(row.taxes)).toBe(row.count * taxes);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Most draws price several offers (a sold-out cabin or an aircraft without it prices none).
    expect(checked).toBeGreaterThan(300);
  });
});

describe('fn: the departure taxes table', () => {
  it('has a whole-euro row for every airport the network serves', () => {
    for (const { code } of servedAirports()) {
      expect(departureTax(code)).toBeGreaterThan(0);
      expect(departureTax(code) % 100).toBe(0);
    }
  });
});

describe('fn: network baggage and fare brands', () => {
  const pax = { adults: 1, children: 1, infants: 1 };
  const journey = (buckets: number[], travelClass: (typeof TRAVEL_CLASSES)[number]) => {
    const [it] = findItineraries('LHR', 'JFK', '2027-03-02', { ...all, maxConnections: 0 });
    if (!it) throw new Error('no flight');
    return flightView(
      { id: 'off_x', expiresAt: 0, travelClass, passengers: pax },
      { slices: [it], multiCity: false, buckets, total: 0, seatsLeft: 9 },
    ).outbound;
  };

  it('includes the bucket’s bags for each passenger with a seat, none for a lap infant', () => {
    expect(journey([0], 'ECONOMY').baggage).toEqual([
      { pax_type: 'ADULT', carry_on: 1, checked: 0 },
      { pax_type: 'CHILD', carry_on: 1, checked: 0 },
      { pax_type: 'INFANT', carry_on: 0, checked: 0 },
    ]);
    expect(journey([5], 'ECONOMY').baggage[0]).toEqual({ pax_type: 'ADULT', carry_on: 1, checked: 2 });
    expect(journey([0], 'BUSINESS').baggage[1]).toEqual({ pax_type: 'CHILD', carry_on: 1, checked: 2 });
  });

  it('names the brand after the cabin and what the journey’s refund allows', () => {
    expect(journey([0], 'ECONOMY').fare_brand).toBe('Economy Light');
    expect(journey([2], 'ECONOMY').fare_brand).toBe('Economy Classic');
    expect(journey([5], 'ECONOMY').fare_brand).toBe('Economy Flex');
    expect(journey([1], 'FIRST').fare_brand).toBe('First Flex');
    const unstated = { refund_before_departure: null, change_before_departure: null };
    expect(networkFareBrand('BUSINESS', unstated)).toBe('Business Light');
  });
});
