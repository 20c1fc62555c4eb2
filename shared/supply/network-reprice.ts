import { type ApiError, ConditionsChangedError, PriceChangedError, SoldOutError } from '../errors.ts';
import { conditionsSeal } from '../flights/fare-conditions.ts';
import {
  type FlightView,
  flightView,
  MAX_SEATS_SHOWN,
  offerConditions,
  type PricedJourney,
  splitJourney,
} from '../flights/flight-view.ts';
import { readSoldSeats } from '../flights/inventory-item.ts';
import { OFFER_TTL_SECONDS, type OfferQuote, sealOffer } from '../flights/offers.ts';
import { priceItinerary } from '../flights/pricing.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { SearchDeps } from '../flights/search.ts';

/**
 * The quoted bucket was gone on some segment: SOLD_OUT when the party no longer fits, else
 * PRICE_CHANGED with a fresh offer at today's price. Undefined when the quoted buckets are open again
 * (seats came back meanwhile), so the booking is simply tried again.
 */
export async function reprice(
  deps: SearchDeps,
  now: number,
  quote: OfferQuote,
  flights: ScheduledFlight[],
): Promise<ApiError | undefined> {
  const sold = await readSoldSeats(deps, flights, quote.travelClass);
  const priced = priceItinerary(flights, quote.travelClass, quote.passengers, sold);
  if (!priced) return new SoldOutError();
  if (priced.buckets.every((bucket, i) => bucket === quote.segments[i]?.bucket)) return undefined;
  return new PriceChangedError({
    previous_total_price: quote.total / 100,
    total_price: priced.total / 100,
    currency: quote.currency,
    flight: freshOffer(deps, now, quote, { ...splitJourney(flights, quote), ...priced }),
  });
}

/**
 * The offer's conditions moved since search (the conditions table changed): the price comes first — a
 * fare gone answers SOLD_OUT or PRICE_CHANGED, whose fresh offer has today's conditions too — else
 * CONDITIONS_CHANGED with a fresh offer at the quoted buckets under today's conditions.
 */
export async function conditionsMoved(
  deps: SearchDeps,
  now: number,
  quote: OfferQuote,
  flights: ScheduledFlight[],
): Promise<ApiError> {
  const repriced = await reprice(deps, now, quote, flights);
  if (repriced) return repriced;
  const journey: PricedJourney = {
    ...splitJourney(flights, quote),
    buckets: quote.segments.map((s) => s.bucket),
    total: quote.total,
    seatsLeft: quote.seatsShown,
  };
  return new ConditionsChangedError({ flight: freshOffer(deps, now, quote, journey) });
}

/** A fresh offer for `journey` (the quote's flights, priced now), its id sealing today's conditions. */
function freshOffer(deps: SearchDeps, now: number, quote: OfferQuote, journey: PricedJourney): FlightView {
  const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
  const conditions = offerConditions(quote.travelClass, journey, quote.passengers);
  const fresh: OfferQuote = {
    ...quote,
    expiresAt,
    segments: quote.segments.map((s, i) => ({ ...s, bucket: journey.buckets[i] ?? s.bucket })),
    total: journey.total,
    seatsShown: Math.min(MAX_SEATS_SHOWN, journey.seatsLeft),
    conditions: conditionsSeal(conditions),
  };
  const id = sealOffer(deps.keys.offer, fresh);
  return flightView(
    { id, expiresAt, travelClass: quote.travelClass, passengers: quote.passengers },
    journey,
    conditions,
  );
}
