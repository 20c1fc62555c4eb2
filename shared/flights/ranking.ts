import type { TravelClass } from './cabins.ts';
import { baseFare, type PassengerCounts, partyFare, seatsFor } from './fares.ts';
import { itineraryDuration, type PricedItinerary } from './flight-view.ts';
import { type FlightDate, flightDateKey } from './inventory-item.ts';
import type { Itinerary } from './itineraries.ts';
import type { SortOrder } from './search-request.ts';
import { partyTaxes } from './taxes.ts';

/** Flight-dates priced per search at most: three BatchGetItem calls, so search stays within 4 round trips. */
const MAX_PRICED_FLIGHT_DATES = 300;

/** The cheapest a party could pay, before inventory is read (taxes included): what PRICE ranks candidates by. */
function floorPrice(itinerary: Itinerary, travelClass: TravelClass, pax: PassengerCounts): number {
  let total = 0;
  for (const flight of itinerary)
    total +=
      partyFare(baseFare(flight.leg.distanceKm, travelClass, flight.carrier.code), pax) +
      partyTaxes(flight.leg.origin.code, pax);
  return total;
}

/**
 * Flight numbers in code-unit order. Not `localeCompare`: its first call builds ICU's collator (4.7 ms
 * and 68 M instructions of a cold start), and for upper-case letters, digits and spaces both orders agree.
 */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Comparable = { total: number; duration: number; departure: number; numbers: string };
const comparators: Record<SortOrder, (a: Comparable, b: Comparable) => number> = {
  PRICE: (a, b) =>
    a.total - b.total ||
    a.duration - b.duration ||
    a.departure - b.departure ||
    byCodeUnits(a.numbers, b.numbers),
  DURATION: (a, b) =>
    a.duration - b.duration ||
    a.total - b.total ||
    a.departure - b.departure ||
    byCodeUnits(a.numbers, b.numbers),
  DEPARTURE: (a, b) =>
    a.departure - b.departure ||
    a.total - b.total ||
    a.duration - b.duration ||
    byCodeUnits(a.numbers, b.numbers),
};
const comparable = (segments: Itinerary, total: number): Comparable => ({
  total,
  duration: itineraryDuration(segments),
  departure: segments[0]?.departureAt ?? 0,
  numbers: segments.map((s) => s.flightNumber).join(' '),
});

/**
 * The candidates worth pricing, best first for `sort` (by floor price for PRICE), until
 * `maxFlightDates` distinct flight-dates are needed. Itineraries whose aircraft lack the cabin are dropped.
 */
export function selectForPricing(
  itineraries: readonly Itinerary[],
  sort: SortOrder,
  travelClass: TravelClass,
  pax: PassengerCounts,
  maxFlightDates = MAX_PRICED_FLIGHT_DATES,
): { itineraries: Itinerary[]; flightDates: FlightDate[] } {
  const ranked = itineraries
    .filter((it) => it.every((f) => (f.leg.aircraft.seats[travelClass] ?? 0) >= seatsFor(pax)))
    .map((it) => ({ it, key: comparable(it, floorPrice(it, travelClass, pax)) }))
    .sort((a, b) => comparators[sort](a.key, b.key));
  const chosen: Itinerary[] = [];
  const flightDates = new Map<string, FlightDate>();
  for (const { it } of ranked) {
    const fresh = it.filter((f) => !flightDates.has(flightDateKey(f)));
    if (flightDates.size + fresh.length > maxFlightDates) break;
    for (const f of fresh) flightDates.set(flightDateKey(f), f);
    chosen.push(it);
  }
  return { itineraries: chosen, flightDates: [...flightDates.values()] };
}

/** Sorts priced itineraries for `sort` and keeps the first `limit`. */
export function rankItineraries(
  priced: readonly PricedItinerary[],
  sort: SortOrder,
  limit: number,
): PricedItinerary[] {
  return priced
    .map((p) => ({ p, key: comparable(p.segments, p.total) }))
    .sort((a, b) => comparators[sort](a.key, b.key))
    .slice(0, limit)
    .map(({ p }) => p);
}
