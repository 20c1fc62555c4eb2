import type { FlightView } from '../../flights/flight-view.ts';
import type { SortOrder } from '../../flights/search-request.ts';

const minutes = (f: FlightView) => f.slices.reduce((n, s) => n + s.duration_minutes, 0);
const departure = (f: FlightView) => f.slices.map((s) => s.segments[0]?.departure_at ?? '').join('|');

/**
 * Flights in the search's order (docs/API.md §4.1): PRICE (total), DURATION (all journeys together) or
 * DEPARTURE (journey by journey); ties by departure, then by price; cut to `limit`. Prices compare in
 * one currency, the one Duffel answers in.
 */
export function rankFlights(flights: readonly FlightView[], sort: SortOrder, limit: number): FlightView[] {
  const byDeparture = (a: FlightView, b: FlightView) =>
    departure(a) < departure(b) ? -1 : departure(a) > departure(b) ? 1 : 0;
  const key: Record<SortOrder, (a: FlightView, b: FlightView) => number> = {
    PRICE: (a, b) => a.total_price - b.total_price || byDeparture(a, b),
    DURATION: (a, b) => minutes(a) - minutes(b) || a.total_price - b.total_price || byDeparture(a, b),
    DEPARTURE: (a, b) => byDeparture(a, b) || a.total_price - b.total_price,
  };
  return [...flights].sort(key[sort]).slice(0, limit);
}
