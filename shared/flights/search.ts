import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { CURRENCY, type PassengerCounts } from './fares.ts';
import { type FlightView, flightView, MAX_SEATS_SHOWN, type PricedItinerary } from './flight-view.ts';
import { readSoldSeats } from './inventory.ts';
import { findItineraries, MIN_LEAD_MINUTES } from './itineraries.ts';
import { OFFER_TTL_SECONDS, sealOffer } from './offers.ts';
import { priceItinerary } from './pricing.ts';
import { rankItineraries, selectForPricing } from './ranking.ts';
import type { SearchInput } from './search-request.ts';

export interface SearchDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

/**
 * `POST /api/flights/search`. Candidates come from the schedule; their inventory is read in at most
 * three BatchGetItem calls (none when nothing flies); each result is sealed into an offer bound to
 * the caller's agency for 20 minutes.
 */
export function searchFlights(deps: SearchDeps) {
  return async (body: SearchInput, session: Session): Promise<FlightView[]> => {
    const pax: PassengerCounts = { adults: body.adults, children: body.children, infants: body.infants };
    const now = deps.clock.now();

    const found = findItineraries(body.origin, body.destination, body.departure_date, {
      maxConnections: body.max_connections,
      earliestDeparture: now + MIN_LEAD_MINUTES * 60_000,
    });
    const candidates = selectForPricing(found, body.sort, body.travel_class, pax);
    const sold = candidates.flightDates.length
      ? await readSoldSeats(deps, candidates.flightDates, body.travel_class)
      : new Map<string, number>();
    const priced = candidates.itineraries
      .map((it) => priceItinerary(it, body.travel_class, pax, sold))
      .filter((p): p is PricedItinerary => p !== undefined);

    const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
    const offers = rankItineraries(priced, body.sort, body.limit).map((itinerary) => {
      const id = sealOffer(deps.keys.offer, {
        agencyId: session.agencyId,
        expiresAt,
        travelClass: body.travel_class,
        passengers: pax,
        segments: itinerary.segments.map((f, i) => ({
          flightNumber: f.flightNumber,
          date: f.date,
          bucket: itinerary.buckets[i] ?? 0,
        })),
        total: itinerary.total,
        currency: CURRENCY,
        seatsShown: Math.min(MAX_SEATS_SHOWN, itinerary.seatsLeft),
      });
      return flightView({ id, expiresAt, travelClass: body.travel_class, passengers: pax }, itinerary);
    });
    return offers;
  };
}
