import type {} from '@duffel/api';
import type { Offer, OfferPassenger, OfferSlice } from '@duffel/api/types';
import { type BaggageRow, type PriceRow, paxTypes } from '../../flights/fare-details.ts';
import type { PassengerCounts, PaxType } from '../../flights/fares.ts';
import { minorUnits, toMajor } from '../../money.ts';

/**
 * What a Duffel offer's fare includes, in our shapes (flights/fare-details.ts; docs/API.md §4.5):
 * the price split as Duffel states it, each slice's included bags and its fare brand.
 */

/** A Duffel passenger's type: as Duffel names it, else by age (infants under 2, children under 12). */
function paxTypeOf(passenger: OfferPassenger): PaxType {
  if (passenger.type === 'adult') return 'ADULT';
  if (passenger.type === 'child') return 'CHILD';
  if (passenger.type === 'infant_without_seat') return 'INFANT';
  const age = passenger.age;
  return typeof age !== 'number' ? 'ADULT' : age < 2 ? 'INFANT' : age < 12 ? 'CHILD' : 'ADULT';
}

/** Duffel's amount in `currency` as major units; null when it is absent, in another currency or unreadable. */
function stated(amount: string | null | undefined, of: string | null | undefined, currency: string) {
  const minor = amount && of === currency ? minorUnits(amount, currency) : undefined;
  return minor === undefined ? null : toMajor(minor, currency);
}

/**
 * `price_breakdown` for a Duffel offer of `total` (minor units of `currency`). Duffel states the base
 * fare and the taxes of the whole offer only (`base_amount`, `tax_amount`), never per passenger: a party
 * of one passenger type gets one row with them (each null where Duffel gives none, or gives it in another
 * currency) and the total; a party of several types gets a row per type whose base, taxes and total
 * are all null, since Duffel does not say how the price splits between them.
 */
export function duffelPriceBreakdown(
  offer: Offer,
  pax: PassengerCounts,
  total: number,
  currency: string,
): PriceRow[] {
  const types = paxTypes(pax);
  const [only] = types;
  if (types.length !== 1 || !only) {
    return types.map(([pax_type, count]) => ({ pax_type, count, base: null, taxes: null, total: null }));
  }
  return [
    {
      pax_type: only[0],
      count: only[1],
      base: stated(offer.base_amount, offer.base_currency, currency),
      taxes: stated(offer.tax_amount, offer.tax_currency, currency),
      total: toMajor(total, currency),
    },
  ];
}

const ORDER: readonly PaxType[] = ['ADULT', 'CHILD', 'INFANT'];

/**
 * A slice's `baggage`: per passenger type, the pieces of each kind Duffel lists for its passengers
 * (`segments[].passengers[].baggages`), the least over the slice's segments and passengers of the type.
 */
export function duffelBaggage(slice: OfferSlice, passengers: readonly OfferPassenger[]): BaggageRow[] {
  const typeOf = new Map(passengers.map((p) => [p.id, paxTypeOf(p)]));
  const rows = new Map<PaxType, BaggageRow>();
  for (const segment of slice.segments) {
    for (const passenger of segment.passengers ?? []) {
      const type = typeOf.get(passenger.passenger_id);
      if (!type) continue;
      const pieces = (kind: string) =>
        (passenger.baggages ?? []).reduce((n, bag) => n + (bag.type === kind ? bag.quantity : 0), 0);
      const seen = rows.get(type);
      const carry_on = pieces('carry_on');
      const checked = pieces('checked');
      rows.set(type, {
        pax_type: type,
        carry_on: seen ? Math.min(seen.carry_on, carry_on) : carry_on,
        checked: seen ? Math.min(seen.checked, checked) : checked,
      });
    }
  }
  return ORDER.flatMap((type) => rows.get(type) ?? []);
}

/** A slice's `fare_brand`: Duffel's `fare_brand_name`, null where the airline gives none. */
export const duffelFareBrand = (slice: OfferSlice): string | null => slice.fare_brand_name ?? null;
