import { bagOffers } from '../flights/bags.ts';
import { seatsFor } from '../flights/fares.ts';
import { splitJourney } from '../flights/flight-view.ts';
import { flightDateKey, readTakenSeats } from '../flights/inventory-item.ts';
import type { OfferQuote } from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { SearchDeps } from '../flights/search.ts';
import { seatLayout } from '../flights/seat-layouts.ts';
import { seatMap } from '../flights/seat-maps.ts';
import type { OfferServices } from './port.ts';

/**
 * The built-in network's services for an offer (docs/API.md §4.10): a bag per passenger and journey
 * (flights/bags.ts), and each segment's seat map from its aircraft's layout with the seats chosen on
 * that flight-date (one consistent BatchGetItem for every segment).
 */
export async function networkServices(
  deps: SearchDeps,
  quote: OfferQuote,
  flights: readonly ScheduledFlight[],
): Promise<OfferServices> {
  const taken = await readTakenSeats(deps, flights);
  const { passengers: pax } = quote;
  const journeyKm = splitJourney(flights, quote).slices.map((slice) =>
    slice.reduce((km, flight) => km + flight.leg.distanceKm, 0),
  );
  return {
    bags: bagOffers(quote.travelClass, journeyKm, seatsFor(pax) + pax.infants),
    seatMaps: flights.flatMap((flight, segmentIndex) => {
      const layout = seatLayout(flight.leg.aircraft.type);
      if (!layout) return [];
      const cabins = seatMap({
        layout,
        travelClass: quote.travelClass,
        distanceKm: flight.leg.distanceKm,
        taken: taken.get(flightDateKey(flight)) ?? new Set(),
      });
      return [{ segmentIndex, cabins }];
    }),
  };
}
