import { describe, expect, it } from 'vitest';
import {
  airportsOf,
  carriersOf,
  filterOffers,
  holdLength,
  journeyName,
  NO_FILTERS,
  type Offer,
  onlyCarrier,
  passengerTypes,
  sortOffers,
} from '../../../web/src/offers.ts';

const segment = (carrier: string, origin: string, destination: string, departure: string) => ({
  carrier_code: carrier,
  carrier_name: `${carrier} Airways`,
  flight_number: `${carrier}1`,
  origin,
  destination,
  departure_at: departure,
  arrival_at: departure,
  duration_minutes: 60,
});

const unstated = { refund_before_departure: null, change_before_departure: null };

const offer = (id: string, segments: ReturnType<typeof segment>[]): Offer => {
  const journey = {
    duration_minutes: 60,
    stops: segments.length - 1,
    segments,
    conditions: unstated,
    baggage: [],
    fare_brand: null,
  };
  return {
    id,
    total_price: 100,
    currency: 'EUR',
    travel_class: 'ECONOMY',
    seats_available: 9,
    expires_at: '2026-12-01T10:00:00Z',
    passengers: { adults: 1, children: 0, infants: 0 },
    outbound: journey,
    slices: [journey],
    conditions: unstated,
    price_breakdown: [{ pax_type: 'ADULT', count: 1, base: 80, taxes: 20, total: 100 }],
  };
};

const direct = offer('direct', [segment('BA', 'LHR', 'JFK', '2026-12-01T07:00:00Z')]);
const oneStop = offer('one-stop', [
  segment('AF', 'LHR', 'CDG', '2026-12-01T19:00:00Z'),
  segment('AF', 'CDG', 'JFK', '2026-12-01T22:00:00Z'),
]);
const mixed = offer('mixed', [
  segment('BA', 'LHR', 'AMS', '2026-12-01T13:00:00Z'),
  segment('KL', 'AMS', 'JFK', '2026-12-01T16:00:00Z'),
]);
const offers = [direct, oneStop, mixed];
const utcHour = (iso: string) => new Date(iso).getUTCHours();
const ids = (list: Offer[]) => list.map((o) => o.id);

describe('console results filters (no new search)', () => {
  it('lets every offer through with no filter, in the order search gave', () => {
    expect(ids(filterOffers(offers, NO_FILTERS, utcHour))).toEqual(['direct', 'one-stop', 'mixed']);
  });

  it('keeps only direct offers', () => {
    expect(ids(filterOffers(offers, { ...NO_FILTERS, maxStops: 0 }, utcHour))).toEqual(['direct']);
  });

  it('leaves out an offer when any of its carriers is unticked', () => {
    expect(ids(filterOffers(offers, { ...NO_FILTERS, hiddenCarriers: ['KL'] }, utcHour))).toEqual([
      'direct',
      'one-stop',
    ]);
  });

  it("filters by the first departure's local hour, as the caller's zones give it", () => {
    const filters = { ...NO_FILTERS, hiddenDayParts: ['morning', 'afternoon'] };
    expect(ids(filterOffers(offers, filters, utcHour))).toEqual(['one-stop']);
    // Two hours later locally, 13:00 UTC is 15:00: still afternoon; 07:00 UTC is 09:00: morning.
    expect(ids(filterOffers(offers, filters, (iso) => utcHour(iso) + 2))).toEqual(['one-stop']);
    expect(ids(filterOffers(offers, { ...NO_FILTERS, hiddenDayParts: ['evening'] }, utcHour))).toEqual([
      'direct',
      'mixed',
    ]);
  });

  it('lists the airlines and airports of the results once each', () => {
    expect(carriersOf(offers).map((c) => c.code)).toEqual(['AF', 'BA', 'KL']);
    expect(airportsOf(offers)).toEqual(['AMS', 'CDG', 'JFK', 'LHR']);
  });

  it('makes one passenger block per searched seat, typed by the search', () => {
    expect(passengerTypes({ adults: 2, children: 1, infants: 1 })).toEqual([
      'ADULT',
      'ADULT',
      'CHILD',
      'INFANT',
    ]);
  });

  it('names a round trip’s journeys Outbound and Return, a multi-city trip’s by number, even two', () => {
    const there = direct.outbound;
    const roundTrip = { ...direct, inbound: there, slices: [there, there] };
    const twoCities = { ...direct, slices: [there, there] };
    const threeCities = { ...direct, slices: [there, there, there] };

    expect(journeyName(direct, 0)).toBe('Outbound');
    expect([0, 1].map((i) => journeyName(roundTrip, i))).toEqual(['Outbound', 'Return']);
    expect([0, 1].map((i) => journeyName(twoCities, i))).toEqual(['Journey 1', 'Journey 2']);
    expect(journeyName(threeCities, 2)).toBe('Journey 3');
  });
});

describe('console results order and "only this airline" (no new search)', () => {
  const priced = (base: Offer, total_price: number, minutes: number): Offer => {
    const outbound = { ...base.outbound, duration_minutes: minutes };
    return { ...base, total_price, outbound, slices: [outbound] };
  };
  const cheapSlow = priced(oneStop, 90, 600);
  const dearFast = priced(direct, 300, 420);
  const middle = priced(mixed, 150, 500);
  const list = [dearFast, cheapSlow, middle];

  it('sorts by price, duration or first departure, ties by price, leaving the given list as it was', () => {
    expect(ids(sortOffers(list, 'PRICE'))).toEqual(['one-stop', 'mixed', 'direct']);
    expect(ids(sortOffers(list, 'DURATION'))).toEqual(['direct', 'mixed', 'one-stop']);
    // Departures: direct 07:00, mixed 13:00, one-stop 19:00.
    expect(ids(sortOffers(list, 'DEPARTURE'))).toEqual(['direct', 'mixed', 'one-stop']);
    expect(ids(list)).toEqual(['direct', 'one-stop', 'mixed']);
  });

  it('keeps one airline with "only", and the filters and the order apply together', () => {
    const hiddenCarriers = onlyCarrier(carriersOf(list), 'BA');
    expect(hiddenCarriers).toEqual(['AF', 'KL']);
    const shown = filterOffers(sortOffers(list, 'DURATION'), { ...NO_FILTERS, hiddenCarriers }, utcHour);
    expect(ids(shown)).toEqual(['direct']);
  });
});

describe('fn: holdLength', () => {
  const departing = (iso: string): Offer => offer('x', [segment('BA', 'LHR', 'JFK', iso)]);
  const now = Date.parse('2026-12-01T10:00:00Z');

  it('is 24 hours far from departure, and ends 48 hours before the first departure nearer to it', () => {
    expect(holdLength(departing('2026-12-20T10:00:00Z'), now)).toBe(24 * 3600_000);
    // 60 hours away: the hold ends 48 hours before, 12 hours from now.
    expect(holdLength(departing('2026-12-03T22:00:00Z'), now)).toBe(12 * 3600_000);
  });

  it('is undefined under 49 hours from the first departure, where a hold would be refused', () => {
    expect(holdLength(departing('2026-12-03T11:00:00Z'), now)).toBe(3600_000);
    expect(holdLength(departing('2026-12-03T10:59:00Z'), now)).toBeUndefined();
    expect(holdLength(departing('2026-12-01T12:00:00Z'), now)).toBeUndefined();
  });
});
