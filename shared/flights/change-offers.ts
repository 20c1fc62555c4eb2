import type { TravelClass } from './cabins.ts';
import type { PassengerCounts } from './fares.ts';
import { combined, type PricedItinerary, type PricedJourney } from './flight-view.ts';
import { type FlightDate, flightDateKey, readSoldSeats } from './inventory-item.ts';
import { findItineraries, MIN_LEAD_MINUTES } from './itineraries.ts';
import type { LocalDate } from './local-time.ts';
import { priceItinerary, segmentPrice } from './pricing.ts';
import { selectForPricing } from './ranking.ts';
import { bestCombinations } from './round-trips.ts';
import { type ScheduledFlight, scheduledFlight } from './schedule.ts';
import type { SearchDeps } from './search.ts';
import type { SortOrder } from './search-request.ts';

/**
 * Changes on the built-in network (docs/API.md §4.9, docs/bookings.md "Changes"): the journeys to change
 * are searched as search searches them (the schedule, one batched inventory read, the same ranking);
 * the journeys kept stay as booked, one itinerary each, so the combinations walked are those of the
 * changed journeys only ({@link bestCombinations}, never the product of every journey).
 *
 * The price rule, in minor units: `fare_difference` = what the new journeys cost at today's buckets,
 * departure taxes included (as search prices them), less what the changed journeys were paid
 * (`segments[].paid`, taxes included; a booking stored before segments kept their price: its buckets
 * priced as pricing.ts prices them) and for the bags and seats bought on them, which the change gives
 * back (docs/decisions.md, "Changes and bags and seats"); where that is negative, it is
 * given back only when every changed journey's fare allows a refund, otherwise it is 0 (the rest of a
 * non-refundable fare is not paid back). `change_total` = `penalty` (each changed journey's change
 * penalty as sold) + `fare_difference`. Both rise with the new journeys' price, so search's PRICE order
 * (by the trip's new total) is also the order by `change_total`.
 */

/**
 * One journey of a booked trip: its flights, the buckets it was sold in, what the party paid for its
 * fare and what for the bags and seats bought on it (cents).
 */
interface BookedJourney {
  readonly segments: readonly ScheduledFlight[];
  readonly buckets: readonly number[];
  readonly paid: number;
  readonly extras: number;
}

/** A booked trip on the network, as a change reads it. */
export interface BookedTrip {
  readonly travelClass: TravelClass;
  readonly passengers: PassengerCounts;
  readonly journeys: readonly BookedJourney[];
  /** Whether its Flight is a multi-city one (no `inbound`), as it was sold. */
  readonly multiCity: boolean;
}

/** A journey to change: its index in the trip, and where and when it flies now. */
export interface JourneyChange {
  readonly index: number;
  readonly origin: string;
  readonly destination: string;
  readonly date: LocalDate;
}

/** What the fare conditions say of a change, in minor units: its penalty, and whether money goes back. */
export interface ChangeTerms {
  readonly penalty: number;
  readonly moneyBack: boolean;
}

/** What a change costs, minor units. */
interface ChangeCost {
  readonly penalty: number;
  readonly fareDifference: number;
  readonly changeTotal: number;
}

/** The rule above: the penalty, and the fare difference (given back only where the fare allows it). */
export function changeCost(terms: ChangeTerms, soldAt: number, newPrice: number): ChangeCost {
  const difference = newPrice - soldAt;
  const fareDifference = difference < 0 && !terms.moneyBack ? 0 : difference;
  return { penalty: terms.penalty, fareDifference, changeTotal: terms.penalty + fareDifference };
}

/**
 * The booked journeys of a trip from its stored segments, split by its journeys' lengths, each with
 * what it was paid (a segment without `paid`: its bucket priced today, taxes included) and its
 * `extras` (cents per journey); undefined if a flight is gone.
 */
export function bookedJourneys(
  segments: readonly { flight_number: string; date: string; bucket: number; paid?: number | undefined }[],
  lengths: readonly number[],
  sale: { travelClass: TravelClass; passengers: PassengerCounts; extras: readonly number[] },
): BookedJourney[] | undefined {
  const journeys: BookedJourney[] = [];
  let at = 0;
  for (const length of lengths) {
    const stored = segments.slice(at, at + length);
    const flights = stored.map((s) => scheduledFlight(s.flight_number, s.date));
    if (stored.length !== length || !flights.every((f) => f !== undefined)) return undefined;
    const paid = stored.reduce(
      (sum, s, i) =>
        sum +
        (s.paid ?? segmentPrice(flights[i] as ScheduledFlight, sale.travelClass, s.bucket, sale.passengers)),
      0,
    );
    journeys.push({
      segments: flights as ScheduledFlight[],
      buckets: stored.map((s) => s.bucket),
      paid,
      extras: sale.extras[journeys.length] ?? 0,
    });
    at += length;
  }
  return journeys;
}

/** A trip as a change would make it: the journeys kept and the new ones, priced together. */
export interface ChangedTrip {
  readonly journey: PricedJourney;
  readonly cost: ChangeCost;
}

/** A kept journey as a column of one: what it was paid, and no limit on seats (it holds its own). */
export const keptItinerary = (journey: BookedJourney): PricedItinerary => ({
  segments: journey.segments,
  buckets: journey.buckets,
  total: journey.paid,
  seatsLeft: Number.POSITIVE_INFINITY,
});

/** What the changed journeys `indices` of `trip` were paid, their bags and seats included, cents. */
export const changedPaid = (trip: BookedTrip, indices: readonly number[]) =>
  indices.reduce((n, j) => n + (trip.journeys[j]?.paid ?? 0) + (trip.journeys[j]?.extras ?? 0), 0);

/** Flight-dates a changed journey may use: none of the journey's own (moving to the same flight is no change). */
const avoiding = (journey: BookedJourney | undefined) => {
  const own = new Set((journey?.segments ?? []).map(flightDateKey));
  return (itinerary: readonly ScheduledFlight[]) => !itinerary.some((f) => own.has(flightDateKey(f)));
};

/**
 * The best `limit` trips for `sort` with `changes` made (each journey index at most once), every
 * journey's first departure at least 2 hours after the previous one's last arrival: one batched read of
 * the changed journeys' inventory, then {@link bestCombinations} over the kept journeys (one itinerary
 * each) and the changed ones (priced as search prices them).
 */
export async function searchChanges(
  deps: SearchDeps,
  trip: BookedTrip,
  request: { changes: readonly JourneyChange[]; terms: ChangeTerms; sort: SortOrder; limit: number },
): Promise<ChangedTrip[]> {
  const { travelClass, passengers: pax } = trip;
  const options = {
    maxConnections: 1 as const,
    earliestDeparture: deps.clock.now() + MIN_LEAD_MINUTES * 60_000,
  };
  const candidates = request.changes.map((c) =>
    selectForPricing(
      findItineraries(c.origin, c.destination, c.date, options).filter(avoiding(trip.journeys[c.index])),
      request.sort,
      travelClass,
      pax,
      request.changes.length > 1 ? 100 : undefined,
    ),
  );
  const flightDates = uniqueFlightDates(candidates.flatMap((c) => c.flightDates));
  const sold = flightDates.length ? await readSoldSeats(deps, flightDates, travelClass) : new Map();
  const changed = new Map(
    request.changes.map((c, i) => [
      c.index,
      (candidates[i]?.itineraries ?? [])
        .map((it) => priceItinerary(it, travelClass, pax, sold))
        .filter((p): p is PricedItinerary => p !== undefined),
    ]),
  );
  const columns = trip.journeys.map((journey, j) => changed.get(j) ?? [keptItinerary(journey)]);
  const soldAt = changedPaid(
    trip,
    request.changes.map((c) => c.index),
  );
  return bestCombinations(columns, request.sort, request.limit).combinations.map((itineraries) => {
    const newPrice = request.changes.reduce((n, c) => n + (itineraries[c.index]?.total ?? 0), 0);
    return {
      journey: combined(itineraries, trip.multiCity),
      cost: changeCost(request.terms, soldAt, newPrice),
    };
  });
}

/** Each flight-date once. */
function uniqueFlightDates(flightDates: readonly FlightDate[]): FlightDate[] {
  return [...new Map(flightDates.map((f) => [flightDateKey(f), f])).values()];
}
