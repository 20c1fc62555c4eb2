import { isoSeconds } from '../clock.ts';
import type { TravelClass } from './cabins.ts';
import {
  type FareConditionsView,
  networkConditionsByJourney,
  type OfferConditions,
} from './fare-conditions.ts';
import {
  type BaggageRow,
  networkBaggage,
  networkFareBrand,
  networkPriceBreakdown,
  type PriceRow,
} from './fare-details.ts';
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
 * What one offer sells: one itinerary per journey (`slices`: one way 1, a round trip 2, multi-city 2–6),
 * priced together (`buckets` lists every segment, journey by journey; `total` covers every journey for
 * the whole party). `multiCity` says whether the second journey is a multi-city one or the way back.
 */
export interface PricedJourney {
  readonly slices: readonly (readonly ScheduledFlight[])[];
  readonly multiCity: boolean;
  readonly buckets: readonly number[];
  readonly total: number;
  readonly seatsLeft: number;
}

/** Journeys sold together, each priced from its own segments. */
export const combined = (itineraries: readonly PricedItinerary[], multiCity: boolean): PricedJourney => ({
  slices: itineraries.map((it) => it.segments),
  multiCity,
  buckets: itineraries.flatMap((it) => it.buckets),
  total: itineraries.reduce((n, it) => n + it.total, 0),
  seatsLeft: Math.min(...itineraries.map((it) => it.seatsLeft)),
});

/** What a journey's fare includes beside its conditions: bags per passenger type, and its brand. */
interface JourneyFare {
  readonly conditions: FareConditionsView;
  readonly baggage: BaggageRow[];
  readonly fare_brand: string | null;
}

/**
 * One direction of a Flight: `{duration_minutes, stops, segments}` and what its own fare includes
 * (`conditions`, `baggage`, `fare_brand`).
 */
function directionView(segments: readonly ScheduledFlight[], fare: JourneyFare) {
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
    conditions: fare.conditions,
    baggage: fare.baggage,
    fare_brand: fare.fare_brand,
  };
}

export type DirectionView = ReturnType<typeof directionView>;

/** Each journey's buckets, in journey order: a journey's fare conditions come from its own segments. */
function journeyBuckets(journey: PricedJourney): number[][] {
  const buckets: number[][] = [];
  let at = 0;
  for (const slice of journey.slices) {
    buckets.push(journey.buckets.slice(at, at + slice.length));
    at += slice.length;
  }
  return buckets;
}

/** An offer's conditions, each journey's from its own buckets and the trip's summary (fare-conditions.ts). */
export const offerConditions = (
  travelClass: TravelClass,
  journey: PricedJourney,
  pax: PassengerCounts,
): OfferConditions => networkConditionsByJourney(travelClass, journeyBuckets(journey), pax);

/**
 * The Flight resource of docs/API.md §4.1 for an offer: `slices`, one per journey, with `outbound` the
 * first and, for a round trip only, `inbound` the second (the same objects). `conditions`: the offer's,
 * when the caller has them already (to seal them in the id).
 */
export function flightView(
  offer: { id: string; expiresAt: number; travelClass: TravelClass; passengers: PassengerCounts },
  journey: PricedJourney,
  conditions = offerConditions(offer.travelClass, journey, offer.passengers),
): FlightView {
  const { travelClass, passengers } = offer;
  const buckets = journeyBuckets(journey);
  const slices = journey.slices.map((segments, i) => {
    const own = conditions.journeys[i] as FareConditionsView;
    return directionView(segments, {
      conditions: own,
      baggage: networkBaggage(travelClass, buckets[i] ?? [], passengers),
      fare_brand: networkFareBrand(travelClass, own),
    });
  });
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
    outbound: slices[0] as DirectionView,
    ...(!journey.multiCity && slices[1] && { inbound: slices[1] }),
    slices,
    conditions: conditions.trip,
    price_breakdown: networkPriceBreakdown(journey.slices.flat(), journey.buckets, travelClass, passengers),
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
  slices: DirectionView[];
  /** What the fare allows before departure, the whole trip's summary of its journeys' (docs/API.md §4.1). */
  conditions: FareConditionsView;
  /** The price per passenger type, base fare and taxes; the rows sum to `total_price` (docs/API.md §4.1). */
  price_breakdown: PriceRow[];
}

/** The flights of a quote split into its journeys, as its `inboundFrom` or `slicesFrom` says. */
export function splitJourney(
  flights: readonly ScheduledFlight[],
  quote: Pick<OfferQuote, 'inboundFrom' | 'slicesFrom'>,
): { slices: (readonly ScheduledFlight[])[]; multiCity: boolean } {
  const starts = quote.slicesFrom ?? (quote.inboundFrom === undefined ? [] : [quote.inboundFrom]);
  const bounds = [0, ...starts, flights.length];
  return {
    slices: bounds.slice(1).map((end, i) => flights.slice(bounds[i], end)),
    multiCity: quote.slicesFrom !== undefined,
  };
}

/** Where each journey after the first starts in the offer's segments, as a quote records it. */
export function journeyStarts(journey: PricedJourney): Pick<OfferQuote, 'inboundFrom' | 'slicesFrom'> {
  const starts: number[] = [];
  let at = 0;
  for (const slice of journey.slices.slice(0, -1)) {
    at += slice.length;
    starts.push(at);
  }
  if (journey.multiCity) return { slicesFrom: starts };
  return starts[0] === undefined ? {} : { inboundFrom: starts[0] };
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
      ...splitJourney(flights, quote),
      buckets: quote.segments.map((s) => s.bucket),
      total: quote.total,
      seatsLeft: quote.seatsShown,
    },
  );
}
