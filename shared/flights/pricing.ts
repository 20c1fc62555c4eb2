import type { TravelClass } from './cabins.ts';
import { baseFare, fareBuckets, type PassengerCounts, partyFare, quoteBucket, seatsFor } from './fares.ts';
import type { PricedItinerary } from './flight-view.ts';
import { flightDateKey, type SoldSeats } from './inventory-item.ts';
import type { Itinerary } from './itineraries.ts';
import type { ScheduledFlight } from './schedule.ts';

/** A flight's fare buckets in a cabin, from its distance, carrier and the cabin's capacity. */
function flightBuckets(flight: ScheduledFlight, travelClass: TravelClass) {
  const capacity = flight.leg.aircraft.seats[travelClass] ?? 0;
  const base = baseFare(flight.leg.distanceKm, travelClass, flight.carrier.code);
  return fareBuckets(travelClass, capacity, base);
}

/** What a party pays for one flight in bucket `bucket` (cents); 0 for a bucket the cabin lacks. */
export const segmentPrice = (
  flight: ScheduledFlight,
  travelClass: TravelClass,
  bucket: number,
  pax: PassengerCounts,
): number => partyFare(flightBuckets(flight, travelClass)[bucket]?.fare ?? 0, pax);

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
    total += partyFare(bucket.fare, pax);
    seatsLeft = Math.min(seatsLeft, capacity - soldSeats);
  }
  return { segments: itinerary, buckets, total, seatsLeft };
}
