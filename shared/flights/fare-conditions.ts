import { createHash } from 'node:crypto';
import { minorUnits, toMajor } from '../money.ts';
import type { TravelClass } from './cabins.ts';
import { bucketConditions, CURRENCY, NOT_ALLOWED, type PassengerCounts, seatsFor } from './fares.ts';

/**
 * Fare conditions (docs/API.md §4.1, docs/flights.md "Fare conditions"): what a fare allows before
 * departure, a refund and a change, and at what penalty. The built-in network reads them from the fare
 * conditions table beside the fare buckets (fares.ts); a supplier states its own (Duffel's mapping).
 */

/** One condition as a Flight answers it: a penalty of 0 is free; null where none applies or none is stated. */
export interface ConditionView {
  allowed: boolean;
  penalty: { amount: number; currency: string } | null;
}

/** A Flight's `conditions`; a condition is null where the supplier does not say. */
export interface FareConditionsView {
  refund_before_departure: ConditionView | null;
  change_before_departure: ConditionView | null;
}

/** One condition in minor units: not allowed, or allowed at a penalty (0 = free). */
type Term = { readonly allowed: false } | { readonly allowed: true; readonly penalty: number };

/** A journey's (or a whole trip's) conditions, penalties in minor units of `currency`. */
interface Conditions {
  readonly refund: Term;
  readonly change: Term;
  readonly currency: string;
}

/** The most restrictive of `terms`: not allowed if any is not; else allowed, the penalties merged by `merge`. */
function mostRestrictive(terms: readonly Term[], merge: (a: number, b: number) => number): Term {
  let penalty = 0;
  for (const term of terms) {
    if (!term.allowed) return { allowed: false };
    penalty = merge(penalty, term.penalty);
  }
  return { allowed: true, penalty };
}

const tableTerm = (cents: number | typeof NOT_ALLOWED, seats: number): Term =>
  cents === NOT_ALLOWED ? { allowed: false } : { allowed: true, penalty: cents * seats };

/**
 * One journey's conditions on the network, from the buckets of its segments: one fare per journey, so
 * the most restrictive segment's row applies (not allowed if any is not; the largest penalty), times
 * the passengers with a seat (infants on a lap pay none).
 */
function journeyConditions(
  travelClass: TravelClass,
  buckets: readonly number[],
  pax: PassengerCounts,
): Conditions {
  const rows = buckets.map((bucket) => bucketConditions(travelClass, bucket));
  const seats = seatsFor(pax);
  return {
    refund: mostRestrictive(
      rows.map((row) => tableTerm(row.refund, seats)),
      Math.max,
    ),
    change: mostRestrictive(
      rows.map((row) => tableTerm(row.change, seats)),
      Math.max,
    ),
    currency: CURRENCY,
  };
}

/**
 * A trip's conditions from its journeys' (a return's two directions, or every journey of a multi-city
 * trip): the most restrictive of all — not allowed if any journey is not — and the penalties summed,
 * since each journey's fare charges its own. Every journey is in `currency`.
 *
 * @example tripConditions([outbound, inbound]) // refund allowed only if both are, penalty out + in
 */
function tripConditions(journeys: readonly Conditions[]): Conditions {
  const sum = (a: number, b: number) => a + b;
  return {
    refund: mostRestrictive(
      journeys.map((journey) => journey.refund),
      sum,
    ),
    change: mostRestrictive(
      journeys.map((journey) => journey.change),
      sum,
    ),
    currency: journeys[0]?.currency ?? CURRENCY,
  };
}

const termView = (term: Term, currency: string): ConditionView =>
  term.allowed
    ? { allowed: true, penalty: { amount: toMajor(term.penalty, currency), currency } }
    : { allowed: false, penalty: null };

/** Conditions as a Flight answers them. */
const conditionsView = (conditions: Conditions): FareConditionsView => ({
  refund_before_departure: termView(conditions.refund, conditions.currency),
  change_before_departure: termView(conditions.change, conditions.currency),
});

/**
 * A network offer's conditions journey by journey (each from its segments' buckets: `slices[i].conditions`)
 * and the trip's summary derived from them (the Flight's own `conditions`): a condition is allowed only
 * if every journey allows it, at the sum of the journeys' penalties (one currency on the network).
 */
export function networkConditionsByJourney(
  travelClass: TravelClass,
  journeys: readonly (readonly number[])[],
  pax: PassengerCounts,
): { trip: FareConditionsView; journeys: FareConditionsView[] } {
  const each = journeys.map((buckets) => journeyConditions(travelClass, buckets, pax));
  return { trip: conditionsView(tripConditions(each)), journeys: each.map(conditionsView) };
}

/** An offer's conditions as shown: the trip's summary and each journey's, in journey order. */
export interface OfferConditions {
  readonly trip: FareConditionsView;
  readonly journeys: readonly FareConditionsView[];
}

/** The conditions of a Flight as it shows them (its own and its journeys'). */
export const shownConditions = (flight: {
  conditions: FareConditionsView;
  slices: readonly { conditions: FareConditionsView }[];
}): OfferConditions => ({ trip: flight.conditions, journeys: flight.slices.map((s) => s.conditions) });

/**
 * The seal of an offer's conditions as shown (docs/decisions.md, "Conditions sealed in the offer"): the
 * first 96 bits of SHA-256 over their JSON, in base64url (16 characters). An offer id carries it, so
 * create can tell whether today's conditions are still the ones the offer was quoted with without the
 * id carrying every condition (a Duffel offer's can be long).
 */
export const conditionsSeal = (conditions: OfferConditions): string =>
  createHash('sha256')
    .update(JSON.stringify([conditions.trip, conditions.journeys]))
    .digest()
    .subarray(0, 12)
    .toString('base64url');

/**
 * What a cancel refunds of `paid` (minor units of `currency`) under the conditions a booking was sold
 * with: 0 where the fare allows no refund; the price less the penalty (never below 0) where it does;
 * the full price where the conditions say nothing or were never stored (bookings sold before fares
 * carried conditions were sold under the rule "the network refunds the full price").
 */
export function refundUnder(
  conditions: FareConditionsView | undefined,
  paid: number,
  currency: string,
): number {
  const refund = conditions?.refund_before_departure;
  if (!refund) return paid;
  if (!refund.allowed) return 0;
  const penalty =
    refund.penalty?.currency === currency ? minorUnits(String(refund.penalty.amount), currency) : undefined;
  return Math.max(0, paid - (penalty ?? 0));
}

/**
 * What a cancel refunds journey by journey (docs/API.md §4.3): each journey whose conditions allow a
 * refund gives back its price less its penalty, one that allows none nothing, one whose conditions were
 * not stated all of its price ({@link refundUnder} for each); minor units of `currency`.
 */
export const refundByJourney = (
  journeys: readonly { conditions: FareConditionsView | undefined; paid: number }[],
  currency: string,
): number => journeys.reduce((sum, j) => sum + refundUnder(j.conditions, j.paid, currency), 0);
