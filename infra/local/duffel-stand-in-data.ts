/**
 * What the Duffel stand-in sells: "Duffel Airways" flights between any two airports Open Travel Data
 * knows, shaped exactly as Duffel's v2 API shapes them — the types come from `@duffel/api`, so the
 * stand-in cannot drift from the real API's shapes without failing the type-check.
 */
import { randomBytes } from 'node:crypto';
import type {} from '@duffel/api';
import type {
  Airline,
  Airport,
  CabinClass,
  CreateOfferRequest,
  Offer,
  OfferPassenger,
  OfferSlice,
  OfferSliceSegment,
  Order,
  OrderCancellation,
  OrderCancellationAirlineCredit,
} from '@duffel/api/types';
import { findAirport, type Airport as ServedAirport } from '#shared/flights/airports.ts';
import { localDateAt, localTimeAt, zonedTimeToEpoch } from '#shared/flights/local-time.ts';
import { decimalAmount } from '#shared/money.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A Duffel-style id: prefix, then 22 base-62-looking characters. */
export function duffelId(prefix: string): string {
  let id = '';
  for (const byte of randomBytes(22)) id += CROCKFORD[byte % 32];
  return `${prefix}_0000${id}`;
}

const DUFFEL_AIRWAYS: Airline = {
  id: 'arl_00009VME7DAGiJjwomhv32',
  name: 'Duffel Airways',
  iata_code: 'ZZ',
  logo_lockup_url: null,
  logo_symbol_url: null,
  conditions_of_carriage_url: null,
};

const NO_CONDITIONS = { change_before_departure: null, refund_before_departure: null };

/** Duffel's airport object for an IATA code, with its IANA zone; undefined for a code nobody knows. */
function duffelAirport(code: string): Airport | undefined {
  const known = findAirport(code);
  if (!known) return undefined;
  const served = 'latitude' in known ? (known as ServedAirport) : undefined;
  return {
    id: `arp_${code.toLowerCase()}_xx`,
    type: 'airport',
    iata_code: code,
    icao_code: '',
    name: served?.name ?? `${code} Airport`,
    city_name: served?.city ?? code,
    city: null,
    iata_city_code: null,
    iata_country_code: served?.country ?? 'ZZ',
    latitude: served?.latitude ?? 0,
    longitude: served?.longitude ?? 0,
    time_zone: known.timeZone,
  };
}

/** Minutes in the air: great-circle distance at 800 km/h plus 40 minutes, or 2 h 35 for unknown places. */
function blockMinutes(from: Airport, to: Airport): number {
  if (!from.latitude || !to.latitude) return 155;
  const rad = Math.PI / 180;
  const [a, b] = [from.latitude * rad, to.latitude * rad];
  const dLon = (to.longitude - from.longitude) * rad;
  const km =
    6371 * Math.acos(Math.min(1, Math.sin(a) * Math.sin(b) + Math.cos(a) * Math.cos(b) * Math.cos(dLon)));
  return Math.round((40 + (km / 800) * 60) / 5) * 5;
}

/** A local wall-clock time as Duffel writes it: `2026-12-01T13:30:00`, no zone. */
const localText = (epoch: number, zone: string) =>
  `${localDateAt(zone, epoch)}T${localTimeAt(zone, epoch)}:00`;

const CABIN_FACTOR: Record<CabinClass, number> = {
  economy: 1,
  premium_economy: 1.8,
  business: 3.6,
  first: 6,
};
/** Departures, local minutes after midnight at the origin. */
const DEPARTURES = [8 * 60 + 15, 13 * 60 + 40, 19 * 60 + 5];

/** Every passenger on a segment: the cabin, a fare basis and the bags included. */
function segmentPassengers(passengers: OfferPassenger[], cabin: CabinClass): OfferSliceSegment['passengers'] {
  return passengers.map((p) => ({
    passenger_id: p.id,
    cabin_class: cabin,
    cabin_class_marketing_name: cabin.replace('_', ' '),
    fare_basis_code: 'Y20LGTN2',
    // One carry-on and one checked bag each; an infant on a lap has none of its own.
    baggages:
      p.type === 'infant_without_seat'
        ? []
        : [
            { type: 'carry_on', quantity: 1 },
            { type: 'checked', quantity: 1 },
          ],
    cabin: null,
  }));
}

/** One slice's options: three direct flights on the day, each a segment for every passenger. */
function sliceOptions(
  request: CreateOfferRequest['slices'][number],
  passengers: OfferPassenger[],
  cabin: CabinClass,
): { slice: OfferSlice; minutes: number; evening: boolean }[] {
  const origin = duffelAirport(request.origin);
  const destination = duffelAirport(request.destination);
  if (!origin || !destination) return [];
  const minutes = blockMinutes(origin, destination);
  return DEPARTURES.map((minuteOfDay, i) => {
    const departing = zonedTimeToEpoch(request.departure_date, minuteOfDay, origin.time_zone);
    const arriving = departing + minutes * 60_000;
    const segment: OfferSliceSegment = {
      id: duffelId('seg'),
      aircraft: { id: 'arc_00009VMF8AhXSSRnQDI6Hi', name: 'Airbus A320', iata_code: '320' },
      origin,
      destination,
      origin_terminal: null,
      destination_terminal: null,
      departing_at: localText(departing, origin.time_zone),
      arriving_at: localText(arriving, destination.time_zone),
      duration: `PT${Math.floor(minutes / 60)}H${minutes % 60}M`,
      distance: null,
      marketing_carrier: DUFFEL_AIRWAYS,
      marketing_carrier_flight_number: String(1000 + (((minuteOfDay + origin.latitude * 7) % 900) | 0) + i),
      operating_carrier: DUFFEL_AIRWAYS,
      operating_carrier_flight_number: String(1000 + i),
      stops: [],
      passengers: segmentPassengers(passengers, cabin),
    };
    const slice: OfferSlice = {
      id: duffelId('sli'),
      origin,
      destination,
      origin_type: 'airport',
      destination_type: 'airport',
      duration: segment.duration,
      fare_brand_name: i === DEPARTURES.length - 1 ? 'Basic' : 'Standard',
      segments: [segment],
      conditions: {
        ...NO_CONDITIONS,
        advance_seat_selection: null,
        priority_boarding: null,
        priority_check_in: null,
      },
      ngs_shelf: null,
      comparison_key: duffelId('cmp'),
    };
    return { slice, minutes, evening: i === DEPARTURES.length - 1 };
  });
}

/**
 * An offer's conditions, as an airline states them through Duffel: refundable at the 10 % its
 * cancellations keep ({@link cancellationFor}), changeable at 5 %; a trip with an evening flight says
 * nothing (null), as airlines often do.
 */
function offerConditions(total: number, currency: string, stated: boolean): Offer['conditions'] {
  if (!stated) return NO_CONDITIONS;
  const penalty = (minor: number) => ({
    allowed: true as const,
    penalty_amount: decimalAmount(minor, currency),
    penalty_currency: currency,
  });
  return {
    refund_before_departure: penalty(total - Math.floor((total * 9) / 10)),
    change_before_departure: penalty(Math.round(total / 20)),
  };
}

/**
 * A slice's own conditions (Duffel's `slices[].conditions`): the offer's rule applied to the slice's
 * share `part` of the total — refundable at 10 %, changeable at 5 % — stated for a slice without an
 * evening flight, unstated (null) for one with it.
 */
function sliceConditions(
  part: number,
  currency: string,
  stated: boolean,
): Pick<OfferSlice['conditions'], 'refund_before_departure' | 'change_before_departure'> {
  if (!stated) return NO_CONDITIONS;
  return offerConditions(part, currency, true);
}

/** The offer's slices, each with its conditions on its share of `total` (by its minutes, as it is priced). */
function slicesOf(journey: ReturnType<typeof sliceOptions>, total: number, currency: string): OfferSlice[] {
  const weights = journey.map(({ minutes }) => 4000 + minutes * 55);
  const weight = weights.reduce((sum, w) => sum + w, 0);
  return journey.map(({ slice, evening }, i) => ({
    ...slice,
    conditions: {
      ...slice.conditions,
      ...sliceConditions(Math.round((total * (weights[i] ?? 0)) / weight), currency, !evening),
    },
  }));
}

/** The taxes of an offer of `total` (minor units): 18 % of it, as Duffel states them in `tax_amount`. */
export const taxOf = (total: number) => Math.round((total * 18) / 100);

/** A passenger's share of the fare: children 75 %, infants on a lap 10 %. */
const paxShare = (p: OfferPassenger) => (p.type === 'adult' ? 1 : p.type === 'child' ? 0.75 : 0.1);

/** The stand-in answers this many offers at most, as Duffel caps its own. */
const MAX_OFFERS = 100;

/** The offers of an offer request: every option of each slice, combined with every other slice's. */
export function offersFor(
  request: CreateOfferRequest,
  options: { currency: string; now: number; offerTtlSeconds: number },
): { passengers: OfferPassenger[]; offers: Offer[] } {
  const passengers: OfferPassenger[] = request.passengers.map((p) => {
    const age = 'age' in p && typeof p.age === 'number' ? p.age : undefined;
    const type = age === undefined ? 'adult' : age < 2 ? 'infant_without_seat' : age < 12 ? 'child' : 'adult';
    return { id: duffelId('pas'), type, age: age ?? null, fare_type: null };
  });
  const cabin = request.cabin_class ?? 'economy';
  // Every slice's options combined, one per slice (a round trip's 9, a 6-slice trip's first 100).
  let journeys: ReturnType<typeof sliceOptions>[] = [[]];
  for (const slice of request.slices) {
    const options = sliceOptions(slice, passengers, cabin);
    journeys = journeys.flatMap((journey) => options.map((o) => [...journey, o])).slice(0, MAX_OFFERS);
  }
  const share = passengers.reduce((sum, p) => sum + paxShare(p), 0);
  const offers = journeys.map((journey, i) =>
    offerOf(journey, passengers, { ...options, share, rank: i, cabin }),
  );
  return { passengers, offers };
}

/**
 * One offer of `journey` (one option per slice): priced by its minutes, the cabin, the passengers'
 * `share` of the fare and its `rank` among the request's offers; conditions kinder without evening flights.
 */
function offerOf(
  journey: ReturnType<typeof sliceOptions>,
  passengers: OfferPassenger[],
  options: {
    currency: string;
    now: number;
    offerTtlSeconds: number;
    share: number;
    rank: number;
    cabin: CabinClass;
  },
): Offer {
  const created = new Date(options.now).toISOString();
  const perPerson =
    journey.reduce((sum, { minutes }) => sum + 4000 + minutes * 55, 0) * CABIN_FACTOR[options.cabin];
  // Whole units for zero-decimal currencies; otherwise cents ending in 0, as fares usually do.
  const minor = Math.round((perPerson * options.share * (1 + options.rank * 0.07)) / 10) * 10;
  const total = options.currency === 'JPY' ? Math.round(minor * 1.9) : minor;
  const amount = decimalAmount(total, options.currency);
  const slices = slicesOf(journey, total, options.currency);
  return {
    id: duffelId('off'),
    live_mode: false,
    created_at: created,
    updated_at: created,
    expires_at: new Date(options.now + options.offerTtlSeconds * 1000).toISOString(),
    owner: DUFFEL_AIRWAYS,
    passengers,
    slices,
    total_amount: amount,
    total_currency: options.currency,
    base_amount: decimalAmount(total - taxOf(total), options.currency),
    base_currency: options.currency,
    tax_amount: decimalAmount(taxOf(total), options.currency),
    tax_currency: options.currency,
    total_emissions_kg: '180',
    available_services: [],
    conditions: offerConditions(
      total,
      options.currency,
      journey.every(({ evening }) => !evening),
    ),
    passenger_identity_documents_required: false,
    payment_requirements: {
      requires_instant_payment: false,
      payment_required_by: new Date(options.now + 3 * 86_400_000).toISOString(),
      price_guarantee_expires_at: new Date(options.now + 2 * 86_400_000).toISOString(),
    },
    private_fares: [],
    partial: false,
    supported_loyalty_programmes: [],
    supported_passenger_identity_document_types: [],
  };
}

/** A six-character record locator, as Duffel Airways issues them. */
function bookingReference(): string {
  let reference = '';
  for (const byte of randomBytes(6)) reference += 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[byte % 32];
  return reference;
}

/** The order made from `offer` for `passengers`, paid now or held. */
export function orderFrom(
  offer: Offer,
  passengers: Order['passengers'],
  options: { metadata: Record<string, string>; held: boolean; now: number },
): Order {
  const created = new Date(options.now).toISOString();
  return {
    id: duffelId('ord'),
    live_mode: false,
    created_at: created,
    synced_at: created,
    booking_reference: bookingReference(),
    owner: offer.owner,
    total_amount: offer.total_amount,
    total_currency: offer.total_currency,
    base_amount: offer.base_amount,
    base_currency: offer.base_currency,
    tax_amount: offer.tax_amount ?? '0',
    tax_currency: offer.tax_currency ?? offer.total_currency,
    slices: offer.slices.map((slice) => ({
      ...slice,
      conditions: { change_before_departure: null },
      segments: slice.segments.map((segment) => ({
        ...segment,
        origin_terminal: segment.origin_terminal ?? '',
        destination_terminal: segment.destination_terminal ?? '',
        duration: segment.duration ?? '',
        distance: segment.distance ?? '',
        passengers: [],
      })),
    })),
    passengers,
    services: [],
    metadata: options.metadata,
    payment_status: options.held
      ? {
          awaiting_payment: true,
          paid_at: null,
          payment_required_by: offer.payment_requirements.payment_required_by ?? created,
          price_guarantee_expires_at: offer.payment_requirements.price_guarantee_expires_at ?? created,
        }
      : { awaiting_payment: false, paid_at: created },
    documents: options.held
      ? []
      : [
          {
            type: 'electronic_ticket',
            unique_identifier: String(options.now).slice(-13),
            passenger_ids: passengers.map((p) => p.id),
          },
        ],
    content: 'managed',
    conditions: offer.conditions,
    cancelled_at: null,
    cancellation: null,
    airline_initiated_changes: [],
    available_actions: ['cancel', 'update'],
  };
}

/** The cancellation quote for `order`: 90 % back to the balance (the fare's penalty kept), valid 5 minutes. */
export function cancellationFor(order: Order, minor: number, now: number): OrderCancellation {
  return {
    id: duffelId('ore'),
    order_id: order.id,
    live_mode: false,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + 5 * 60_000).toISOString(),
    confirmed_at: '',
    refund_amount: decimalAmount(Math.floor((minor * 9) / 10), order.total_currency),
    refund_currency: order.total_currency,
    // Duffel: `awaiting_payment` for a hold not paid yet.
    refund_to: order.payment_status.awaiting_payment ? 'awaiting_payment' : 'balance',
    airline_credits: [],
  };
}

/**
 * How the airline would cancel an order, as a test sets it: Duffel's cancellation fields as Duffel may
 * state them — `refund_amount`, `refund_currency` and `expires_at` null where Duffel documents null, a
 * `refund_to` of Duffel's (or one it may add), and `airline_credits` (a credit's `credit_code` null where
 * the airline has not issued it, `expires_at` as Duffel's airline credits carry it). Fields left out
 * keep the stand-in's own terms.
 */
export interface CancellationTerms {
  refund_amount?: string | null;
  refund_currency?: string | null;
  expires_at?: string | null;
  refund_to?: string | null;
  airline_credits?:
    | null
    | (Partial<Omit<OrderCancellationAirlineCredit, 'credit_code'>> & {
        credit_code?: string | null;
        expires_at?: string | null;
      })[];
}

/**
 * Duffel's airline credits for a cancellation refunded as credits: one per passenger, the refund
 * shared among them (the first takes what does not divide), named as airlines name them, each coded by
 * the passenger's ticket number, issued on the order's day (Duffel's guide to airline credits).
 */
export function airlineCreditsFor(order: Order, minor: number): OrderCancellationAirlineCredit[] {
  const count = Math.max(1, order.passengers.length);
  const share = Math.floor(minor / count);
  return order.passengers.map((passenger, i) => ({
    id: duffelId('acd'),
    credit_name: 'Future Flight Credit',
    credit_code: `125${String(Date.parse(order.created_at) + i).slice(-10)}`,
    credit_amount: decimalAmount(i === 0 ? minor - share * (count - 1) : share, order.total_currency),
    credit_currency: order.total_currency,
    issued_on: order.created_at.slice(0, 10),
    passenger_id: passenger.id,
  }));
}
