import type { TravelClass } from './cabins.ts';
import { flightBuckets } from './fare-details.ts';
import { type PassengerCounts, partyFare, quoteBucket, seatsFor } from './fares.ts';
import type { PricedItinerary } from './flight-view.ts';
import { flightDateKey, type SoldSeats } from './inventory-item.ts';
import type { Itinerary } from './itineraries.ts';
import type { ScheduledFlight } from './schedule.ts';
import { partyTaxes } from './taxes.ts';

/** What a party pays for one flight in bucket `bucket` (cents), its departure taxes included. */
export const segmentPrice = (
  flight: ScheduledFlight,
  travelClass: TravelClass,
  bucket: number,
  pax: PassengerCounts,
): number =>
  partyFare(flightBuckets(flight, travelClass)[bucket]?.fare ?? 0, pax) +
  partyTaxes(flight.leg.origin.code, pax);

/** Prices an itinerary against sold seats; undefined when a segment cannot seat the party. */
export function priceItinerary(
  itinerary: Itinerary,
  travelClass: TravelClass,
  pax: PassengerCounts,
  sold: SoldSeats,
): PricedItinerary | undefined {
  const buckets: number[] = [];
  let total = 0;
  let seatsLeft = Number.POSITIVE_INFINITY;
  for (const flight of itinerary) {
    const capacity = flight.leg.aircraft.seats[travelClass] ?? 0;
    const soldSeats = sold.get(flightDateKey(flight)) ?? 0;
    const bucket = quoteBucket(flightBuckets(flight, travelClass), soldSeats, seatsFor(pax));
    if (!bucket) return undefined;
    buckets.push(bucket.index);
    total += partyFare(bucket.fare, pax) + partyTaxes(flight.leg.origin.code, pax);
    seatsLeft = Math.min(seatsLeft, capacity - soldSeats);
  }
  return { segments: itinerary, buckets, total, seatsLeft };
}
