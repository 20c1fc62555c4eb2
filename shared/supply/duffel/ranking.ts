import type { FlightView } from '../../flights/flight-view.ts';
import type { SortOrder } from '../../flights/search-request.ts';

const minutes = (f: FlightView) => f.slices.reduce((n, s) => n + s.duration_minutes, 0);
const departure = (f: FlightView) => f.slices.map((s) => s.segments[0]?.departure_at ?? '').join('|');
const numbers = (f: FlightView) =>
  f.slices.flatMap((s) => s.segments.map((segment) => segment.flight_number)).join(' ');
/** Code-unit order: UTC date-times of one shape compare as text. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The least time between one journey's last arrival and the next one's first departure (docs/API.md §4.1). */
const JOURNEY_GAP_MS = 2 * 3_600_000;

/**
 * Whether every journey of `flight` leaves at least 2 hours after the one before it lands: the rule of a
 * round trip, journey by journey (docs/API.md §4.1). Duffel does not apply it to the offers it answers.
 */
function keepsJourneyGaps(flight: FlightView): boolean {
  for (let i = 1; i < flight.slices.length; i++) {
    const landed = Date.parse(flight.slices[i - 1]?.segments.at(-1)?.arrival_at ?? '');
    const leaves = Date.parse(flight.slices[i]?.segments[0]?.departure_at ?? '');
    if (!(leaves - landed >= JOURNEY_GAP_MS)) return false;
  }
  return true;
}

/**
 * Flights in the search's order (docs/API.md §4.1, with the built-in network's ties, docs/flights.md):
 * PRICE (total; then duration, departure), DURATION (all journeys together; then price, departure) or
 * DEPARTURE (journey by journey; then price, duration); last by flight numbers, so that equal offers
 * keep one order. Offers breaking the 2-hour rule between journeys are left out before the cut to
 * `limit`, so fewer than `limit` may be answered. Prices compare in one currency, the one Duffel
 * answers in.
 */
export function rankFlights(flights: readonly FlightView[], sort: SortOrder, limit: number): FlightView[] {
  const price = (a: FlightView, b: FlightView) => a.total_price - b.total_price;
  const duration = (a: FlightView, b: FlightView) => minutes(a) - minutes(b);
  const leaves = (a: FlightView, b: FlightView) => byText(departure(a), departure(b));
  const first: Record<SortOrder, (a: FlightView, b: FlightView) => number> = {
    PRICE: (a, b) => price(a, b) || duration(a, b) || leaves(a, b),
    DURATION: (a, b) => duration(a, b) || price(a, b) || leaves(a, b),
    DEPARTURE: (a, b) => leaves(a, b) || price(a, b) || duration(a, b),
  };
  const order = (a: FlightView, b: FlightView) => first[sort](a, b) || byText(numbers(a), numbers(b));
  return flights.filter(keepsJourneyGaps).sort(order).slice(0, limit);
}
