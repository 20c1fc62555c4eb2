import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { CURRENCY, type PassengerCounts } from './fares.ts';
import {
  type FlightView,
  flightView,
  MAX_SEATS_SHOWN,
  oneWay,
  type PricedItinerary,
  type PricedJourney,
  roundTrip as roundTripJourney,
} from './flight-view.ts';
import { type FlightDate, flightDateKey, readSoldSeats } from './inventory-item.ts';
import { findItineraries, type Itinerary, MIN_LEAD_MINUTES } from './itineraries.ts';
import { OFFER_TTL_SECONDS, sealOffer } from './offers.ts';
import { priceItinerary } from './pricing.ts';
import { rankItineraries, selectForPricing } from './ranking.ts';
import { bestRoundTrips } from './round-trips.ts';
import type { SearchInput } from './search-request.ts';

export interface SearchDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

/** Flight-dates priced per direction of a round trip: both directions together stay within two BatchGetItem calls. */
export const MAX_PRICED_FLIGHT_DATES_PER_DIRECTION = 100;

/**
 * `POST /api/flights/search`. Candidates come from the schedule; their inventory is read with
 * BatchGetItem (one call for up to 100 flight-dates, calls in parallel; none when nothing flies); each
 * result is sealed into an offer bound to the caller's agency for 20 minutes. A round trip prices
 * each direction from its own segments and pairs them with {@link bestRoundTrips}.
 */
export function searchFlights(deps: SearchDeps) {
  return async (body: SearchInput, session: Session): Promise<FlightView[]> => {
    const pax: PassengerCounts = { adults: body.adults, children: body.children, infants: body.infants };
    const now = deps.clock.now();
    const options = {
      maxConnections: body.max_connections,
      earliestDeparture: now + MIN_LEAD_MINUTES * 60_000,
    };
    const roundTrip = body.return_date !== undefined;
    const perDirection = roundTrip ? MAX_PRICED_FLIGHT_DATES_PER_DIRECTION : undefined;

    const outbound = selectForPricing(
      findItineraries(body.origin, body.destination, body.departure_date, options),
      body.sort,
      body.travel_class,
      pax,
      perDirection,
    );
    const inbound =
      body.return_date === undefined
        ? undefined
        : selectForPricing(
            findItineraries(body.destination, body.origin, body.return_date, options),
            body.sort,
            body.travel_class,
            pax,
            perDirection,
          );
    const flightDates = uniqueFlightDates([...outbound.flightDates, ...(inbound?.flightDates ?? [])]);
    const sold = flightDates.length
      ? await readSoldSeats(deps, flightDates, body.travel_class)
      : new Map<string, number>();
    const price = (itineraries: readonly Itinerary[]) =>
      itineraries
        .map((it) => priceItinerary(it, body.travel_class, pax, sold))
        .filter((p): p is PricedItinerary => p !== undefined);

    const journeys: PricedJourney[] = inbound
      ? bestRoundTrips(
          price(outbound.itineraries),
          price(inbound.itineraries),
          body.sort,
          body.limit,
        ).pairs.map(([out, back]) => roundTripJourney(out, back))
      : rankItineraries(price(outbound.itineraries), body.sort, body.limit).map(oneWay);

    const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
    return journeys.map((journey) => {
      const id = sealOffer(deps.keys.offer, {
        agencyId: session.agencyId,
        expiresAt,
        travelClass: body.travel_class,
        passengers: pax,
        segments: [...journey.outbound, ...(journey.inbound ?? [])].map((f, i) => ({
          flightNumber: f.flightNumber,
          date: f.date,
          bucket: journey.buckets[i] ?? 0,
        })),
        ...(journey.inbound && { inboundFrom: journey.outbound.length }),
        total: journey.total,
        currency: CURRENCY,
        seatsShown: Math.min(MAX_SEATS_SHOWN, journey.seatsLeft),
      });
      return flightView({ id, expiresAt, travelClass: body.travel_class, passengers: pax }, journey);
    });
  };
}

/** Each flight-date once: a round trip may fly the same flight-date both ways only in theory. */
function uniqueFlightDates(flightDates: readonly FlightDate[]): FlightDate[] {
  return [...new Map(flightDates.map((f) => [flightDateKey(f), f])).values()];
}
