import { isoSeconds } from '../clock.ts';
import type { TravelClass } from './cabins.ts';
import { CURRENCY, type PassengerCounts } from './fares.ts';
import type { OfferQuote } from './offers.ts';
import { type ScheduledFlight, scheduledFlight } from './schedule.ts';

/** `seats_available` is capped as airlines publish it (API.md §4.1). */
export const MAX_SEATS_SHOWN = 9;

/** A priced itinerary: one or two flights, bookable for a party in one cabin. */
export interface PricedItinerary {
  readonly segments: readonly ScheduledFlight[];
  readonly buckets: readonly number[];
  /** Cents, for the whole party. */
  readonly total: number;
  /** Seats left in the cabin on the fullest segment. */
  readonly seatsLeft: number;
}

export const itineraryDuration = (segments: readonly ScheduledFlight[]) =>
  ((segments.at(-1)?.arrivalAt ?? 0) - (segments[0]?.departureAt ?? 0)) / 60_000;

/** The Flight resource of API.md §4.1 for an offer. */
export function flightView(
  offer: { id: string; expiresAt: number; travelClass: TravelClass; passengers: PassengerCounts },
  itinerary: PricedItinerary,
) {
  return {
    id: offer.id,
    total_price: itinerary.total / 100,
    currency: CURRENCY,
    travel_class: offer.travelClass,
    seats_available: Math.min(MAX_SEATS_SHOWN, itinerary.seatsLeft),
    expires_at: isoSeconds(offer.expiresAt * 1000),
    passengers: {
      adults: offer.passengers.adults,
      children: offer.passengers.children,
      infants: offer.passengers.infants,
    },
    outbound: {
      duration_minutes: itineraryDuration(itinerary.segments),
      stops: itinerary.segments.length - 1,
      segments: itinerary.segments.map((flight) => ({
        carrier_code: flight.carrier.code,
        carrier_name: flight.carrier.name,
        flight_number: flight.flightNumber,
        origin: flight.leg.origin.code,
        destination: flight.leg.destination.code,
        departure_at: isoSeconds(flight.departureAt),
        arrival_at: isoSeconds(flight.arrivalAt),
        duration_minutes: flight.leg.blockMinutes,
      })),
    },
  };
}

export type FlightView = ReturnType<typeof flightView>;

/** The flights of a quote, from the schedule; undefined if one no longer exists. */
export function quotedFlights(quote: OfferQuote): ScheduledFlight[] | undefined {
  const flights = quote.segments.map((s) => scheduledFlight(s.flightNumber, s.date));
  return flights.every((f) => f !== undefined) ? (flights as ScheduledFlight[]) : undefined;
}

/** The Flight exactly as search returned it for offer `id`. */
export function quotedFlightView(
  id: string,
  quote: OfferQuote,
  flights: readonly ScheduledFlight[],
): FlightView {
  return flightView(
    { id, expiresAt: quote.expiresAt, travelClass: quote.travelClass, passengers: quote.passengers },
    {
      segments: flights,
      buckets: quote.segments.map((s) => s.bucket),
      total: quote.total,
      seatsLeft: quote.seatsShown,
    },
  );
}
