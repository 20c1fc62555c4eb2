import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import type { TravelClass } from './cabins.ts';
import { conditionsSeal } from './fare-conditions.ts';
import { CURRENCY, type PassengerCounts } from './fares.ts';
import {
  combined,
  type FlightView,
  flightView,
  journeyStarts,
  MAX_SEATS_SHOWN,
  offerConditions,
  type PricedItinerary,
  type PricedJourney,
} from './flight-view.ts';
import { BATCH_GET_LIMIT, type FlightDate, flightDateKey, readSoldSeats } from './inventory-item.ts';
import { findItineraries, MIN_LEAD_MINUTES } from './itineraries.ts';
import { journeysOf } from './journeys.ts';
import { OFFER_TTL_SECONDS, sealOffer } from './offers.ts';
import { priceItinerary } from './pricing.ts';
import { rankItineraries, selectForPricing } from './ranking.ts';
import { bestCombinations } from './round-trips.ts';
import type { SearchInput } from './search-request.ts';

export interface SearchDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

/**
 * Flight-dates priced per journey of a round trip or multi-city search: one BatchGetItem call each at
 * most (a round trip's two directions together stay within two).
 */
const MAX_PRICED_FLIGHT_DATES_PER_DIRECTION = BATCH_GET_LIMIT;

/**
 * `POST /api/flights/search`. Candidates come from the schedule, journey by journey; their inventory is
 * read with BatchGetItem (one call for up to 100 flight-dates, calls in parallel; none when nothing
 * flies); each result is sealed into an offer bound to the caller's agency for 20 minutes. A round trip
 * or multi-city search prices each journey from its own segments and combines them with
 * {@link bestCombinations}.
 */
export function searchFlights(deps: SearchDeps) {
  return async (body: SearchInput, session: Session): Promise<FlightView[]> => {
    const pax: PassengerCounts = { adults: body.adults, children: body.children, infants: body.infants };
    const now = deps.clock.now();
    const options = {
      maxConnections: body.max_connections,
      earliestDeparture: now + MIN_LEAD_MINUTES * 60_000,
    };
    const requested = journeysOf(body);
    const perJourney = requested.length > 1 ? MAX_PRICED_FLIGHT_DATES_PER_DIRECTION : undefined;
    const candidates = requested.map((j) =>
      selectForPricing(
        findItineraries(j.origin, j.destination, j.date, options),
        body.sort,
        body.travel_class,
        pax,
        perJourney,
      ),
    );
    const flightDates = uniqueFlightDates(candidates.flatMap((c) => c.flightDates));
    const sold = flightDates.length
      ? await readSoldSeats(deps, flightDates, body.travel_class)
      : new Map<string, number>();
    const priced = candidates.map((c) =>
      c.itineraries
        .map((it) => priceItinerary(it, body.travel_class, pax, sold))
        .filter((p): p is PricedItinerary => p !== undefined),
    );

    const multiCity = body.slices !== undefined;
    const journeys: PricedJourney[] =
      priced.length > 1
        ? bestCombinations(priced, body.sort, body.limit).combinations.map((c) => combined(c, multiCity))
        : rankItineraries(priced[0] ?? [], body.sort, body.limit).map((it) => combined([it], false));

    const offer = { agencyId: session.agencyId, travelClass: body.travel_class, passengers: pax };
    const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
    return journeys.map((journey) => sealedFlight(deps, { ...offer, expiresAt }, journey));
  };
}

/**
 * One offer as search answers it: its quote sealed in its id, with the conditions shown (create answers
 * CONDITIONS_CHANGED if they move).
 */
function sealedFlight(
  deps: SearchDeps,
  offer: { agencyId: string; expiresAt: number; travelClass: TravelClass; passengers: PassengerCounts },
  journey: PricedJourney,
): FlightView {
  const conditions = offerConditions(offer.travelClass, journey, offer.passengers);
  const id = sealOffer(deps.keys.offer, {
    ...offer,
    segments: journey.slices.flat().map((f, i) => ({
      flightNumber: f.flightNumber,
      date: f.date,
      bucket: journey.buckets[i] ?? 0,
    })),
    ...journeyStarts(journey),
    total: journey.total,
    currency: CURRENCY,
    seatsShown: Math.min(MAX_SEATS_SHOWN, journey.seatsLeft),
    conditions: conditionsSeal(conditions),
  });
  return flightView({ ...offer, id }, journey, conditions);
}

/** Each flight-date once: journeys are hours apart, so one flight-date in two of them is only theory. */
function uniqueFlightDates(flightDates: readonly FlightDate[]): FlightDate[] {
  return [...new Map(flightDates.map((f) => [flightDateKey(f), f])).values()];
}
