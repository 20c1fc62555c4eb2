import type { TravelClass } from './cabins.ts';
import { distanceBand } from './seat-maps.ts';

/**
 * The built-in network's checked bags (docs/API.md §4.10; docs/flights.md, "Bags"): one 23 kg bag
 * service per passenger and journey, priced by the journey's length and the cabin, at most
 * {@link MAX_BAGS} of it per passenger and journey. The network never sells out of bags.
 */

const BAG_WEIGHT_KG = 23;
const MAX_BAGS = 3;

/** The bag price table: whole euros per bag by the journey's band (short, medium, long-haul). */
const bagPrices: Record<TravelClass, readonly number[]> = {
  ECONOMY: [30, 40, 60],
  PREMIUM_ECONOMY: [25, 35, 50],
  BUSINESS: [20, 30, 40],
  FIRST: [20, 30, 40],
};

/** A bag service of an offer; `price` in minor units per bag. */
export interface BagOffer {
  readonly id: string;
  readonly journeyIndex: number;
  readonly passengerIndex: number;
  readonly weightKg: number;
  readonly price: number;
  readonly maxQuantity: number;
}

/**
 * The bags of an offer: for each journey (its flown kilometres) and each passenger (infants too: a bag
 * travels whoever's lap), one service. Ids name the journey and the passenger, so create finds the
 * same bag again from the offer alone.
 */
export function bagOffers(
  travelClass: TravelClass,
  journeyKm: readonly number[],
  passengers: number,
): BagOffer[] {
  return journeyKm.flatMap((km, journeyIndex) =>
    Array.from({ length: passengers }, (_, passengerIndex) => ({
      id: `bag_${journeyIndex}_${passengerIndex}`,
      journeyIndex,
      passengerIndex,
      weightKg: BAG_WEIGHT_KG,
      price: (bagPrices[travelClass][distanceBand(km)] ?? 0) * 100,
      maxQuantity: MAX_BAGS,
    })),
  );
}
