import { type ApiError, PriceChangedError, SoldOutError } from '../errors.ts';
import { flightView, MAX_SEATS_SHOWN, splitJourney } from '../flights/flight-view.ts';
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
  const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
  const fresh: OfferQuote = {
    ...quote,
    expiresAt,
    segments: quote.segments.map((s, i) => ({ ...s, bucket: priced.buckets[i] ?? s.bucket })),
    total: priced.total,
    seatsShown: Math.min(MAX_SEATS_SHOWN, priced.seatsLeft),
  };
  const id = sealOffer(deps.keys.offer, fresh);
  return new PriceChangedError({
    previous_total_price: quote.total / 100,
    total_price: priced.total / 100,
    currency: quote.currency,
    flight: flightView(
      { id, expiresAt, travelClass: quote.travelClass, passengers: quote.passengers },
      {
        ...splitJourney(flights, quote),
        buckets: priced.buckets,
        total: priced.total,
        seatsLeft: priced.seatsLeft,
      },
    ),
  });
}
