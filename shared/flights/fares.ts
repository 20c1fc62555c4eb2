import { LONG_HAUL_KM, type TravelClass } from './cabins.ts';

/**
 * Fares, in integer euro cents.
 *
 * Each cabin has nested fare buckets, cheapest first. Bucket i may sell seats while the cabin's sold
 * count stays within its cumulative limit L(i) (its share of the cabin plus every cheaper bucket's);
 * the dearest bucket's limit is the whole cabin. A booking of n seats pays the cheapest bucket with
 * sold + n <= L(i), for every passenger: as seats sell, the price can only rise.
 */
export const CURRENCY = 'EUR';

/** Not allowed at all (no refund, no change), in the fare conditions table below. */
export const NOT_ALLOWED = null;

interface BucketPlan {
  /** Share of the cabin each bucket adds, cheapest first; sums to 1. */
  shares: readonly number[];
  /** Fare of each bucket relative to the cabin's base fare. */
  multipliers: readonly number[];
  /**
   * The fare conditions table (docs/flights.md, "Fare conditions"): each bucket's penalty in whole euros
   * per passenger with a seat and per journey, for a refund and for a change before departure; 0 is
   * free, {@link NOT_ALLOWED} is not allowed.
   */
  refund: readonly (number | typeof NOT_ALLOWED)[];
  change: readonly (number | typeof NOT_ALLOWED)[];
}

const bucketPlans: Record<TravelClass, BucketPlan> = {
  ECONOMY: {
    shares: [0.2, 0.2, 0.2, 0.15, 0.15, 0.1],
    multipliers: [1, 1.2, 1.45, 1.75, 2.15, 2.7],
    refund: [NOT_ALLOWED, NOT_ALLOWED, 40, 30, 20, 0],
    change: [NOT_ALLOWED, 30, 25, 20, 15, 0],
  },
  PREMIUM_ECONOMY: {
    shares: [0.25, 0.25, 0.2, 0.15, 0.15],
    multipliers: [1, 1.2, 1.45, 1.75, 2.1],
    refund: [NOT_ALLOWED, 80, 60, 40, 0],
    change: [60, 45, 30, 15, 0],
  },
  BUSINESS: {
    shares: [0.25, 0.25, 0.2, 0.15, 0.15],
    multipliers: [1, 1.2, 1.45, 1.75, 2.1],
    refund: [NOT_ALLOWED, 100, 75, 50, 0],
    change: [75, 50, 25, 0, 0],
  },
  FIRST: {
    shares: [0.25, 0.25, 0.25, 0.25],
    multipliers: [1, 1.25, 1.55, 1.9],
    refund: [0, 0, 0, 0],
    change: [0, 0, 0, 0],
  },
};

/** What bucket `index` of a cabin allows before departure: penalties in cents per seated passenger and journey. */
interface BucketConditions {
  readonly refund: number | typeof NOT_ALLOWED;
  readonly change: number | typeof NOT_ALLOWED;
}

/** A bucket's row of the fare conditions table, in cents; a bucket past the table's end is not allowed. */
export function bucketConditions(travelClass: TravelClass, index: number): BucketConditions {
  const plan = bucketPlans[travelClass];
  const cents = (euros: number | typeof NOT_ALLOWED | undefined) =>
    euros === undefined || euros === NOT_ALLOWED ? NOT_ALLOWED : euros * 100;
  return { refund: cents(plan.refund[index]), change: cents(plan.change[index]) };
}

/** Cabin fare relative to economy. */
function cabinFactor(travelClass: TravelClass, distanceKm: number): number {
  switch (travelClass) {
    case 'ECONOMY':
      return 1;
    case 'PREMIUM_ECONOMY':
      return 1.7;
    case 'BUSINESS':
      return distanceKm >= LONG_HAUL_KM ? 4.2 : 2.6;
    case 'FIRST':
      return 7.5;
  }
}

/**
 * Child fare as a share of the adult fare. Infants travel on a lap (no seat) and pay no fare, only
 * the departure taxes (taxes.ts; docs/API.md §4.1).
 */
const CHILD_SHARE = 0.75;

/**
 * The cheapest fare of a cabin on a flight, in whole euros (as cents): economy is 30 € plus 11 cents
 * a km for the first 1,000 km and 5.5 cents a km beyond, times the cabin factor and a carrier factor
 * between 0.90 and 1.14 that is fixed per carrier.
 */
export function baseFare(distanceKm: number, travelClass: TravelClass, carrier: string): number {
  const economy = 30 + 0.11 * Math.min(distanceKm, 1000) + 0.055 * Math.max(0, distanceKm - 1000);
  const carrierFactor = 0.9 + ((carrier.charCodeAt(0) * 31 + carrier.charCodeAt(1)) % 15) / 100;
  return Math.round(economy * cabinFactor(travelClass, distanceKm) * carrierFactor) * 100;
}

interface FareBucket {
  /** Bucket index, 0 = cheapest. */
  readonly index: number;
  /** Cumulative limit: this bucket sells while sold seats stay at or below it. */
  readonly limit: number;
  /** Adult fare in cents. */
  readonly fare: number;
}

/** The nested buckets of a cabin of `capacity` seats whose cheapest fare is `base`. */
export function fareBuckets(travelClass: TravelClass, capacity: number, base: number): FareBucket[] {
  const multipliers = bucketPlans[travelClass].multipliers;
  return bucketLimits(travelClass, capacity).map((limit, index) => ({
    index,
    limit,
    fare: Math.round((base * (multipliers[index] ?? 1)) / 100) * 100,
  }));
}

/** The cumulative seat limit of each bucket of a cabin of `capacity` seats, cheapest first. */
export function bucketLimits(travelClass: TravelClass, capacity: number): number[] {
  const shares = bucketPlans[travelClass].shares;
  let cumulative = 0;
  return shares.map((share, index) => {
    cumulative += share;
    return index === shares.length - 1 ? capacity : Math.round(cumulative * capacity);
  });
}

/** The bucket a booking of `seats` pays when `sold` seats of the cabin are gone; none when full. */
export function quoteBucket(
  buckets: readonly FareBucket[],
  sold: number,
  seats: number,
): FareBucket | undefined {
  return buckets.find((bucket) => sold + seats <= bucket.limit);
}

export interface PassengerCounts {
  readonly adults: number;
  readonly children: number;
  readonly infants: number;
}

/** Seats a party needs: infants sit on a lap. */
export const seatsFor = (pax: PassengerCounts) => pax.adults + pax.children;

export const PAX_TYPES = ['ADULT', 'CHILD', 'INFANT'] as const;
export type PaxType = (typeof PAX_TYPES)[number];

/** One passenger's fare of a type for one segment at adult fare `fare` (cents): infants pay none. */
export const paxFare = (fare: number, type: PaxType): number =>
  type === 'ADULT' ? fare : type === 'CHILD' ? Math.round(fare * CHILD_SHARE) : 0;

/** What a party pays for one segment at adult fare `fare` (cents), taxes aside. */
export function partyFare(fare: number, pax: PassengerCounts): number {
  return pax.adults * fare + pax.children * paxFare(fare, 'CHILD');
}

/**
 * The baggage table (docs/flights.md, "Baggage"): checked bags included per passenger with a seat,
 * by cabin and bucket (cheapest first); one carry-on bag everywhere. Infants on a lap have no
 * allowance of their own.
 */
const CHECKED_BAGS: Record<TravelClass, readonly number[]> = {
  ECONOMY: [0, 0, 1, 1, 1, 2],
  PREMIUM_ECONOMY: [1, 2, 2, 2, 2],
  BUSINESS: [2, 2, 2, 2, 3],
  FIRST: [3, 3, 3, 3],
};
const CARRY_ON_BAGS = 1;

/** The pieces a passenger of `type` may take in bucket `bucket` of a cabin. */
export function bucketBaggage(
  travelClass: TravelClass,
  bucket: number,
  type: PaxType,
): { carry_on: number; checked: number } {
  if (type === 'INFANT') return { carry_on: 0, checked: 0 };
  return { carry_on: CARRY_ON_BAGS, checked: CHECKED_BAGS[travelClass][bucket] ?? 0 };
}
