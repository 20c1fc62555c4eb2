import { isoSeconds } from '../clock.ts';
import type { TravelClass } from './cabins.ts';
import { type FareConditionsView, networkConditions } from './fare-conditions.ts';
import { CURRENCY, type PassengerCounts } from './fares.ts';
import type { OfferQuote } from './offers.ts';
import { type ScheduledFlight, scheduledFlight } from './schedule.ts';

/** `seats_available` is capped as airlines publish it (docs/API.md §4.1). */
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

/**
 * What one offer sells: an outbound itinerary and, for a round trip, an inbound one, priced together
 * (`buckets` lists every segment, outbound first; `total` covers both ways for the whole party).
 */
export interface PricedJourney {
  readonly outbound: readonly ScheduledFlight[];
  readonly inbound?: readonly ScheduledFlight[];
  readonly buckets: readonly number[];
  readonly total: number;
  readonly seatsLeft: number;
}

/** A one-way journey: the itinerary alone. */
export const oneWay = (itinerary: PricedItinerary): PricedJourney => ({
  outbound: itinerary.segments,
  buckets: itinerary.buckets,
  total: itinerary.total,
  seatsLeft: itinerary.seatsLeft,
});

/** A round trip: both directions sold together, each priced from its own segments. */
export const roundTrip = (outbound: PricedItinerary, inbound: PricedItinerary): PricedJourney => ({
  outbound: outbound.segments,
  inbound: inbound.segments,
  buckets: [...outbound.buckets, ...inbound.buckets],
  total: outbound.total + inbound.total,
  seatsLeft: Math.min(outbound.seatsLeft, inbound.seatsLeft),
});

/** One direction of a Flight: `{duration_minutes, stops, segments}`. */
function directionView(segments: readonly ScheduledFlight[]) {
  return {
    duration_minutes: itineraryDuration(segments),
    stops: segments.length - 1,
    segments: segments.map((flight) => ({
      carrier_code: flight.carrier.code,
      carrier_name: flight.carrier.name,
      flight_number: flight.flightNumber,
      origin: flight.leg.origin.code,
      destination: flight.leg.destination.code,
      departure_at: isoSeconds(flight.departureAt),
      arrival_at: isoSeconds(flight.arrivalAt),
      duration_minutes: flight.leg.blockMinutes,
    })),
  };
}

export type DirectionView = ReturnType<typeof directionView>;

/** Each journey's buckets, outbound first: a journey's fare conditions come from its own segments. */
export const journeyBuckets = (journey: PricedJourney): number[][] => {
  const split = journey.outbound.length;
  const inbound = journey.buckets.slice(split);
  return [journey.buckets.slice(0, split), ...(inbound.length > 0 ? [inbound] : [])];
};

/** The Flight resource of docs/API.md §4.1 for an offer; `inbound` only for a round trip. */
export function flightView(
  offer: { id: string; expiresAt: number; travelClass: TravelClass; passengers: PassengerCounts },
  journey: PricedJourney,
): FlightView {
  return {
    id: offer.id,
    total_price: journey.total / 100,
    currency: CURRENCY,
    travel_class: offer.travelClass,
    seats_available: Math.min(MAX_SEATS_SHOWN, journey.seatsLeft),
    expires_at: isoSeconds(offer.expiresAt * 1000),
    passengers: {
      adults: offer.passengers.adults,
      children: offer.passengers.children,
      infants: offer.passengers.infants,
    },
    outbound: directionView(journey.outbound),
    ...(journey.inbound && { inbound: directionView(journey.inbound) }),
    conditions: networkConditions(offer.travelClass, journeyBuckets(journey), offer.passengers),
  };
}

export interface FlightView {
  id: string;
  total_price: number;
  currency: string;
  travel_class: TravelClass;
  seats_available: number | null;
  expires_at: string;
  passengers: PassengerCounts;
  outbound: DirectionView;
  inbound?: DirectionView;
  /** What the fare allows before departure (docs/API.md §4.1). */
  conditions: FareConditionsView;
}

/** The flights of a journey split into its directions, as a quote's `inboundFrom` says. */
export function splitJourney(
  flights: readonly ScheduledFlight[],
  inboundFrom: number | undefined,
): { outbound: readonly ScheduledFlight[]; inbound?: readonly ScheduledFlight[] } {
  if (inboundFrom === undefined) return { outbound: flights };
  return { outbound: flights.slice(0, inboundFrom), inbound: flights.slice(inboundFrom) };
}

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
      ...splitJourney(flights, quote.inboundFrom),
      buckets: quote.segments.map((s) => s.bucket),
      total: quote.total,
      seatsLeft: quote.seatsShown,
    },
  );
}
