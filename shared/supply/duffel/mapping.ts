import type {} from '@duffel/api';
import type {
  CabinClass,
  CreateOfferRequest,
  CreateOfferRequestPassenger,
  FlightsCondition,
  FlightsConditions,
  Offer,
  OfferPassenger,
  OfferSlice,
} from '@duffel/api/types';
import { isoSeconds } from '../../clock.ts';
import type { TravelClass } from '../../flights/cabins.ts';
import {
  type ConditionView,
  conditionsSeal,
  type FareConditionsView,
} from '../../flights/fare-conditions.ts';
import type { PassengerCounts } from '../../flights/fares.ts';
import type { DirectionView, FlightView } from '../../flights/flight-view.ts';
import { journeysOf, MAX_JOURNEYS } from '../../flights/journeys.ts';
import { type LocalDate, zonedTimeToEpoch } from '../../flights/local-time.ts';
import { OFFER_TTL_SECONDS, openPayload, sealPayload } from '../../flights/offers.ts';
import type { SearchInput } from '../../flights/search-request.ts';
import { minorUnits, toMajor } from '../../money.ts';
import { duffelBaggage, duffelFareBrand, duffelPriceBreakdown } from './fare-details.ts';

/**
 * Duffel's shapes to ours and back (docs/API.md §4.5). Times: Duffel gives local wall-clock times and
 * each airport's IANA zone; we answer UTC. Money: Duffel's decimal strings become integer minor units
 * without passing through a float. An offer Duffel gives that our Flight cannot carry (more than one
 * stop in a direction, a 3-decimal currency, an airport without a zone) is left out of the results.
 */

export const CABINS: Record<TravelClass, CabinClass> = {
  ECONOMY: 'economy',
  PREMIUM_ECONOMY: 'premium_economy',
  BUSINESS: 'business',
  FIRST: 'first',
};

/**
 * The age Duffel is told for a child or infant at search, which knows only how many travel: Duffel
 * prices non-adults by age, and the booking's own dates of birth are checked against the type's range.
 */
export const SEARCH_AGE = { child: 8, infant: 1 } as const;

/**
 * One offer request: every journey a slice (one way 1, a round trip 2, multi-city 2–6), passengers by
 * type and age, cabin, connections.
 */
export function offerRequestBody(body: SearchInput): CreateOfferRequest {
  const passengers: CreateOfferRequestPassenger[] = [
    ...Array.from({ length: body.adults }, () => ({ type: 'adult' as const })),
    ...Array.from({ length: body.children }, () => ({ age: SEARCH_AGE.child })),
    ...Array.from({ length: body.infants }, () => ({ age: SEARCH_AGE.infant })),
  ];
  const slice = (origin: string, destination: string, date: string) => ({
    origin,
    destination,
    departure_date: date,
    departure_time: null,
    arrival_time: null,
  });
  return {
    slices: journeysOf(body).map((j) => slice(j.origin, j.destination, j.date)),
    passengers,
    cabin_class: CABINS[body.travel_class],
    max_connections: body.max_connections === 0 ? 0 : 1,
  };
}

/** Duffel's local `2026-12-01T13:30:00` at an airport in `zone`, as epoch milliseconds. */
export function utcInstant(local: string, zone: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(local);
  if (!match?.[1] || !zone) return undefined;
  const minuteOfDay = Number(match[2]) * 60 + Number(match[3]);
  try {
    return zonedTimeToEpoch(match[1], minuteOfDay, zone) + Number(match[4] ?? 0) * 1000;
  } catch {
    return undefined;
  }
}

export function direction(
  slice: OfferSlice,
  passengers: readonly OfferPassenger[],
): DirectionView | undefined {
  if (slice.segments.length < 1 || slice.segments.length > 2) return undefined;
  const segments = [];
  for (const segment of slice.segments) {
    const departing = utcInstant(segment.departing_at, segment.origin.time_zone);
    const arriving = utcInstant(segment.arriving_at, segment.destination.time_zone);
    const carrier = segment.marketing_carrier;
    const number = segment.marketing_carrier_flight_number;
    // A flight without its marketing carrier's code and number cannot be named: no Flight of ours.
    if (departing === undefined || arriving === undefined || !carrier.iata_code || !number) return undefined;
    if (!segment.origin.iata_code || !segment.destination.iata_code) return undefined;
    segments.push({
      carrier_code: carrier.iata_code,
      carrier_name: carrier.name,
      flight_number: `${carrier.iata_code}${number}`,
      origin: segment.origin.iata_code,
      destination: segment.destination.iata_code,
      departure_at: isoSeconds(departing),
      arrival_at: isoSeconds(arriving),
      duration_minutes: Math.round((arriving - departing) / 60_000),
    });
  }
  const first = Date.parse(segments[0]?.departure_at ?? '');
  const last = Date.parse(segments.at(-1)?.arrival_at ?? '');
  return {
    duration_minutes: Math.round((last - first) / 60_000),
    stops: segments.length - 1,
    segments,
    // The slice's own conditions, as Duffel states them for this slice and every passenger.
    conditions: conditionsFromOffer(slice.conditions),
    baggage: duffelBaggage(slice, passengers),
    fare_brand: duffelFareBrand(slice),
  };
}

/**
 * One of Duffel's conditions in our shape: null where Duffel says nothing; a penalty only where Duffel
 * states one it is allowed at ("0.00" is free), in the penalty's own currency (the airline's, not
 * necessarily the offer's); a penalty our money cannot carry is left unstated (null).
 */
function conditionView(condition: FlightsCondition | null | undefined): ConditionView | null {
  if (!condition) return null;
  const { penalty_amount: amount, penalty_currency: currency } = condition;
  const minor = condition.allowed && amount && currency ? minorUnits(amount, currency) : undefined;
  return {
    allowed: condition.allowed,
    penalty: minor === undefined || !currency ? null : { amount: toMajor(minor, currency), currency },
  };
}

/**
 * Duffel's `conditions` as a Flight's: the offer's (every slice and passenger: the Flight's own
 * `conditions`, the trip's summary as Duffel states it) or a slice's (`slices[i].conditions`; its perks,
 * such as `priority_boarding`, are not carried).
 */
export function conditionsFromOffer(
  conditions: Partial<FlightsConditions> | null | undefined,
): FareConditionsView {
  return {
    refund_before_departure: conditionView(conditions?.refund_before_departure),
    change_before_departure: conditionView(conditions?.change_before_departure),
  };
}

/** What a Duffel offer id seals: enough to re-read the offer and check the price it was quoted at. */
export interface DuffelQuote {
  readonly agencyId: string;
  /** Epoch seconds: the earlier of Duffel's expiry and ours. */
  readonly expiresAt: number;
  readonly duffelOfferId: string;
  readonly total: number;
  readonly currency: string;
  readonly travelClass: TravelClass;
  readonly passengers: PassengerCounts;
  readonly firstDepartureDate: LocalDate;
  /** A multi-city offer: its second slice is a journey of its own, not the way back. */
  readonly multiCity?: boolean;
  /** The seal of the conditions search showed (fare-conditions.ts); absent on offers sealed before it. */
  readonly conditions?: string;
}

interface SealedDuffel {
  v: 'duffel';
  a: string;
  x: number;
  d: string;
  t: number;
  u: string;
  c: TravelClass;
  p: [number, number, number];
  f: string;
  /** Multi-city only. */
  m?: 1;
  /** The seal of the conditions shown. */
  k?: string;
}

function sealDuffelOffer(key: Uint8Array, quote: DuffelQuote): string {
  const sealed: SealedDuffel = {
    v: 'duffel',
    a: quote.agencyId,
    x: quote.expiresAt,
    d: quote.duffelOfferId,
    t: quote.total,
    u: quote.currency,
    c: quote.travelClass,
    p: [quote.passengers.adults, quote.passengers.children, quote.passengers.infants],
    f: quote.firstDepartureDate,
    ...(quote.multiCity && { m: 1 as const }),
    ...(quote.conditions !== undefined && { k: quote.conditions }),
  };
  return sealPayload(key, sealed);
}

export function openDuffelOffer(
  key: Uint8Array,
  offerId: string,
): (DuffelQuote & { identity: string }) | undefined {
  const opened = openPayload(key, offerId);
  // Sealed by this service under its key: the shape is the one sealDuffelOffer wrote.
  const sealed = opened?.payload as SealedDuffel | undefined;
  if (!opened || sealed?.v !== 'duffel') return undefined;
  return {
    identity: opened.identity,
    agencyId: sealed.a,
    expiresAt: sealed.x,
    duffelOfferId: sealed.d,
    total: sealed.t,
    currency: sealed.u,
    travelClass: sealed.c,
    passengers: { adults: sealed.p[0], children: sealed.p[1], infants: sealed.p[2] },
    firstDepartureDate: sealed.f,
    ...(sealed.m && { multiCity: true }),
    ...(sealed.k !== undefined && { conditions: sealed.k }),
  };
}

/**
 * Our Flight for a Duffel offer, its id sealing the offer and its quote for `agencyId`; undefined when
 * the offer does not fit our Flight. `expires_at` is the earlier of Duffel's and 20 minutes from now.
 */
export function flightFromOffer(
  offer: Offer,
  request: {
    agencyId: string;
    travelClass: TravelClass;
    passengers: PassengerCounts;
    now: number;
    multiCity?: boolean;
  },
  key: Uint8Array,
  total = minorUnits(offer.total_amount, offer.total_currency),
): { flight: FlightView; quote: DuffelQuote; departsAt: number } | undefined {
  const slices = offer.slices.map((slice) => direction(slice, offer.passengers ?? []));
  const mapped = slices.filter((s) => s !== undefined);
  const [outbound, inbound] = mapped;
  const most = request.multiCity ? MAX_JOURNEYS : 2;
  if (total === undefined || !outbound || mapped.length < slices.length || slices.length > most)
    return undefined;
  const first = outbound.segments[0];
  const firstSegment = offer.slices[0]?.segments[0];
  if (!first || !firstSegment) return undefined;
  // An offer without an expiry Duffel states (or one not a date) lasts our 20 minutes.
  const ours = Math.floor(request.now / 1000) + OFFER_TTL_SECONDS;
  const expiresAt = Math.min(Math.floor(Date.parse(offer.expires_at ?? '') / 1000) || ours, ours);
  const conditions = conditionsFromOffer(offer.conditions);
  const quote: DuffelQuote = {
    agencyId: request.agencyId,
    expiresAt,
    duffelOfferId: offer.id,
    total,
    currency: offer.total_currency,
    travelClass: request.travelClass,
    passengers: request.passengers,
    firstDepartureDate: firstSegment.departing_at.slice(0, 10),
    ...(request.multiCity && { multiCity: true }),
    conditions: conditionsSeal({ trip: conditions, journeys: mapped.map((slice) => slice.conditions) }),
  };
  const flight: FlightView = {
    id: sealDuffelOffer(key, quote),
    total_price: toMajor(total, offer.total_currency),
    currency: offer.total_currency,
    travel_class: request.travelClass,
    seats_available: null,
    expires_at: isoSeconds(expiresAt * 1000),
    passengers: { ...request.passengers },
    outbound,
    ...(!request.multiCity && inbound && { inbound }),
    slices: mapped,
    conditions,
    price_breakdown: duffelPriceBreakdown(offer, request.passengers, total, offer.total_currency),
  };
  return { flight, quote, departsAt: Date.parse(first.departure_at) };
}
