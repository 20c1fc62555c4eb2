import { isoSeconds } from '../clock.ts';
import { toMajor } from '../money.ts';
import {
  type BookedTrip,
  type ChangedTrip,
  type ChangeTerms,
  changeCost,
  changedPaid,
  keptItinerary,
} from './change-offers.ts';
import { conditionsSeal, shownConditions } from './fare-conditions.ts';
import { CURRENCY } from './fares.ts';
import {
  combined,
  type FlightView,
  flightView,
  journeyStarts,
  MAX_SEATS_SHOWN,
  offerConditions,
  type PricedItinerary,
  splitJourney,
} from './flight-view.ts';
import { readSoldSeats } from './inventory-item.ts';
import type { LocalDate } from './local-time.ts';
import { OFFER_TTL_SECONDS, openPayload, sealPayload } from './offers.ts';
import { priceItinerary } from './pricing.ts';
import { type ScheduledFlight, scheduledFlight } from './schedule.ts';
import type { SearchDeps } from './search.ts';

/**
 * A change offer's id (docs/API.md §4.9): the change sealed like a search offer (offers.ts), bound to
 * the agency, the booking and the booking's version, so it changes the booking as it was quoted or not
 * at all (a booking changed since answers 410, like an offer booked).
 */
export interface ChangeQuote {
  readonly agencyId: string;
  readonly bookingId: string;
  /** The booking's version when quoted. */
  readonly version: number;
  /** Epoch seconds. */
  readonly expiresAt: number;
  /** The indices of the journeys changed. */
  readonly changed: readonly number[];
  /** Every segment of the trip as it would be, journey by journey, with the bucket it is sold in. */
  readonly segments: readonly { flightNumber: string; date: LocalDate; bucket: number }[];
  readonly inboundFrom?: number;
  readonly slicesFrom?: readonly number[];
  /** The trip's new total, and the change's cost, in cents. */
  readonly total: number;
  readonly penalty: number;
  readonly fareDifference: number;
  readonly changeTotal: number;
  readonly seatsShown: number;
  /**
   * The seal of the conditions the change offer showed (fare-conditions.ts), as a search offer's: a
   * change whose new trip's conditions moved since is 409 CONDITIONS_CHANGED (docs/API.md §2).
   */
  readonly conditions?: string;
}

/** Compact wire form inside the sealed id (`v: 'c1'`: never opens as a search offer, nor one as this). */
interface Sealed {
  v: 'c1';
  q: Omit<ChangeQuote, 'agencyId'> & { a: string };
}

export function sealChange(key: Uint8Array, quote: ChangeQuote): string {
  const { agencyId, ...rest } = quote;
  const payload: Sealed = { v: 'c1', q: { ...rest, a: agencyId } };
  return sealPayload(key, payload);
}

/** A change offer id opened; undefined when this service did not issue it as a change offer. */
export function openChange(key: Uint8Array, id: string): ChangeQuote | undefined {
  const sealed = openPayload(key, id)?.payload as Sealed | undefined;
  if (sealed?.v !== 'c1') return undefined;
  const { a, ...rest } = sealed.q;
  return { ...rest, agencyId: a };
}

/** The quote of `trip` for `booking`, good for 20 minutes from `now`, the conditions it shows sealed in. */
export function changeQuote(
  booking: { agencyId: string; bookingId: string; version: number; changed: readonly number[] },
  trip: ChangedTrip,
  now: number,
  sale: Pick<BookedTrip, 'travelClass' | 'passengers'>,
): ChangeQuote {
  const { journey, cost } = trip;
  const flights = journey.slices.flat();
  return {
    ...booking,
    expiresAt: Math.floor(now / 1000) + OFFER_TTL_SECONDS,
    segments: flights.map((f, i) => ({
      flightNumber: f.flightNumber,
      date: f.date,
      bucket: journey.buckets[i] ?? 0,
    })),
    ...journeyStarts(journey),
    total: journey.total,
    ...cost,
    seatsShown: Math.min(MAX_SEATS_SHOWN, journey.seatsLeft),
    conditions: conditionsSeal(offerConditions(sale.travelClass, journey, sale.passengers)),
  };
}

/**
 * The quote to offer again after a requote ({@link requoteChange}): the trip at its new price, or, the
 * same, the quote itself from `now` on — both sealing the conditions as they are today.
 */
export function freshQuote(
  quote: ChangeQuote,
  requoted: 'same' | ChangedTrip,
  now: number,
  trip: BookedTrip,
  flights: readonly ScheduledFlight[],
): ChangeQuote {
  const { agencyId, bookingId, version, changed } = quote;
  const cost = {
    penalty: quote.penalty,
    fareDifference: quote.fareDifference,
    changeTotal: quote.changeTotal,
  };
  const same = {
    journey: {
      ...splitJourney(flights, quote),
      buckets: quote.segments.map((s) => s.bucket),
      total: quote.total,
      seatsLeft: quote.seatsShown,
    },
    cost,
  };
  return changeQuote(
    { agencyId, bookingId, version, changed },
    requoted === 'same' ? same : requoted,
    now,
    trip,
  );
}

/** Whether the conditions `offer` shows are no longer those its quote sealed (CONDITIONS_CHANGED). */
export const conditionsMovedSince = (quote: ChangeQuote, offer: ChangeOfferView) =>
  quote.conditions !== undefined && quote.conditions !== conditionsSeal(shownConditions(offer.flight));

/** The ChangeOffer resource of docs/API.md §4.9. */
export interface ChangeOfferView {
  id: string;
  flight: FlightView;
  change_total: { amount: number; currency: string };
  penalty: { amount: number; currency: string };
  fare_difference: { amount: number; currency: string };
  refund_to?: 'balance';
  expires_at: string;
}

const money = (cents: number) => ({ amount: toMajor(cents, CURRENCY), currency: CURRENCY });

/** The ChangeOffer for `quote` (sealed as `id`); money back goes to the agency's balance, as refunds do. */
export function changeOfferView(
  id: string,
  quote: ChangeQuote,
  trip: BookedTrip,
  flights: ScheduledFlight[],
): ChangeOfferView {
  const flight = flightView(
    { id, expiresAt: quote.expiresAt, travelClass: trip.travelClass, passengers: trip.passengers },
    {
      ...splitJourney(flights, quote),
      multiCity: trip.multiCity,
      buckets: quote.segments.map((s) => s.bucket),
      total: quote.total,
      seatsLeft: quote.seatsShown,
    },
  );
  return {
    id,
    flight,
    change_total: money(quote.changeTotal),
    penalty: money(quote.penalty),
    fare_difference: money(quote.fareDifference),
    ...(quote.changeTotal < 0 && { refund_to: 'balance' as const }),
    expires_at: isoSeconds(quote.expiresAt * 1000),
  };
}

/** The flights of a change quote, from the schedule; undefined if one no longer flies. */
export function changeFlights(quote: Pick<ChangeQuote, 'segments'>): ScheduledFlight[] | undefined {
  const flights = quote.segments.map((s) => scheduledFlight(s.flightNumber, s.date));
  return flights.every((f) => f !== undefined) ? (flights as ScheduledFlight[]) : undefined;
}

/**
 * The change quoted, priced again at today's buckets: 'sold-out' when a changed journey no longer seats
 * the party, 'same' when every bucket is still the quoted one, else the trip at its new price.
 */
export async function requoteChange(
  deps: SearchDeps,
  quote: ChangeQuote,
  trip: BookedTrip,
  terms: ChangeTerms,
): Promise<'sold-out' | 'same' | ChangedTrip> {
  const flights = changeFlights(quote);
  if (!flights) return 'sold-out';
  const { slices } = splitJourney(flights, quote);
  const changedFlights = quote.changed.flatMap((j) => slices[j] ?? []);
  const sold = await readSoldSeats(deps, changedFlights, trip.travelClass);
  const itineraries: PricedItinerary[] = [];
  for (const [j, segments] of slices.entries()) {
    const kept = trip.journeys[j];
    if (!quote.changed.includes(j) && kept) {
      itineraries.push(keptItinerary(kept));
      continue;
    }
    const priced = priceItinerary(segments, trip.travelClass, trip.passengers, sold);
    if (!priced) return 'sold-out';
    itineraries.push(priced);
  }
  const journey = combined(itineraries, trip.multiCity);
  if (journey.buckets.every((b, i) => b === quote.segments[i]?.bucket)) return 'same';
  const soldAt = changedPaid(trip, quote.changed);
  const newPrice = quote.changed.reduce((n, j) => n + (itineraries[j]?.total ?? 0), 0);
  return { journey, cost: changeCost(terms, soldAt, newPrice) };
}
