import type { TravelClass } from './cabins.ts';
import type { FareConditionsView } from './fare-conditions.ts';
import {
  baseFare,
  bucketBaggage,
  fareBuckets,
  type PassengerCounts,
  type PaxType,
  paxFare,
} from './fares.ts';
import type { ScheduledFlight } from './schedule.ts';
import { departureTax } from './taxes.ts';

/**
 * What a fare includes (docs/API.md §4.1, turn 5): the price split by passenger type into base fare and
 * taxes (`price_breakdown`), and per journey the included bags (`baggage`) and the fare brand
 * (`fare_brand`). The network's from its fare buckets and the departure taxes table; Duffel's are
 * mapped in supply/duffel/fare-details.ts into the same shapes.
 */

/** One row of `price_breakdown`: money in major units; null where the supplier does not state it. */
export interface PriceRow {
  pax_type: PaxType;
  count: number;
  base: number | null;
  taxes: number | null;
  total: number | null;
}

/** One row of a journey's `baggage`: pieces included per passenger of the type. */
export interface BaggageRow {
  pax_type: PaxType;
  carry_on: number;
  checked: number;
}

/** The passenger types of a party, in the order rows are answered, with how many travel. */
export const paxTypes = (pax: PassengerCounts): [PaxType, number][] =>
  (
    [
      ['ADULT', pax.adults],
      ['CHILD', pax.children],
      ['INFANT', pax.infants],
    ] as [PaxType, number][]
  ).filter(([, count]) => count > 0);

/** A flight's fare buckets in a cabin, from its distance, carrier and the cabin's capacity. */
export function flightBuckets(flight: ScheduledFlight, travelClass: TravelClass) {
  const capacity = flight.leg.aircraft.seats[travelClass] ?? 0;
  const base = baseFare(flight.leg.distanceKm, travelClass, flight.carrier.code);
  return fareBuckets(travelClass, capacity, base);
}

/**
 * The network's `price_breakdown` of an offer (every journey's flights, each in its bucket): per
 * passenger type, the fares of every flight (children 75 %, infants none) and the departure taxes of
 * every flight's origin, in cents summed exactly as the offer's total is (pricing.ts), so the rows add
 * up to `total_price` to the cent.
 */
export function networkPriceBreakdown(
  flights: readonly ScheduledFlight[],
  buckets: readonly number[],
  travelClass: TravelClass,
  pax: PassengerCounts,
): PriceRow[] {
  const fares = flights.map((flight, i) => flightBuckets(flight, travelClass)[buckets[i] ?? 0]?.fare ?? 0);
  const taxes = flights.reduce((sum, flight) => sum + departureTax(flight.leg.origin.code), 0);
  return paxTypes(pax).map(([type, count]) => {
    const base = count * fares.reduce((sum, fare) => sum + paxFare(fare, type), 0);
    return {
      pax_type: type,
      count,
      base: base / 100,
      taxes: (count * taxes) / 100,
      total: (base + count * taxes) / 100,
    };
  });
}

/** A network journey's `baggage`: per passenger type, the least any of its flights' buckets includes. */
export function networkBaggage(
  travelClass: TravelClass,
  buckets: readonly number[],
  pax: PassengerCounts,
): BaggageRow[] {
  return paxTypes(pax).map(([type]) => {
    const each = buckets.map((bucket) => bucketBaggage(travelClass, bucket, type));
    return {
      pax_type: type,
      carry_on: Math.min(...each.map((b) => b.carry_on)),
      checked: Math.min(...each.map((b) => b.checked)),
    };
  });
}

const CABIN_NAMES: Record<TravelClass, string> = {
  ECONOMY: 'Economy',
  PREMIUM_ECONOMY: 'Premium Economy',
  BUSINESS: 'Business',
  FIRST: 'First',
};

/**
 * A network journey's `fare_brand`, named by what its refund condition allows: "Light" not
 * refundable, "Classic" refundable at a penalty, "Flex" free — after the cabin ("Economy Light").
 */
export function networkFareBrand(travelClass: TravelClass, conditions: FareConditionsView): string {
  const refund = conditions.refund_before_departure;
  const tier = !refund?.allowed ? 'Light' : refund.penalty?.amount === 0 ? 'Flex' : 'Classic';
  return `${CABIN_NAMES[travelClass]} ${tier}`;
}
