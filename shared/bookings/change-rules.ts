import { NotChangeableError } from '../errors.ts';
import { type BookedTrip, bookedJourneys, type ChangeTerms } from '../flights/change-offers.ts';
import type { ConditionView, FareConditionsView } from '../flights/fare-conditions.ts';
import { minorUnits } from '../money.ts';
import type { BookingRecord } from './entity/booking-item.ts';
import { soldFlight } from './entity/stored-flight.ts';
import { journeyExtras } from './extras.ts';

/**
 * What a change of a booking may do (docs/API.md §4.9, docs/bookings.md "Changes"): which journeys may
 * change, at what penalty, and whether a cheaper new fare gives money back, from the conditions the
 * booking was sold with.
 */

/** A stored Flight as this module reads it: each journey's conditions where the sale stated them. */
interface SoldConditions {
  readonly conditions?: FareConditionsView | undefined;
  /** Each journey; `conditions` where the sale stated them per journey (read through {@link journeyConditions}). */
  readonly slices?: readonly object[] | undefined;
}

/**
 * A journey's conditions as sold: its own (`slices[i].conditions`) where the offer stated them per
 * journey, otherwise the trip's. `own` says which: a trip's penalty is the whole trip's, counted once.
 */
function journeyConditions(
  flight: SoldConditions,
  index: number,
): { conditions: FareConditionsView | undefined; own: boolean } {
  const slice = flight.slices?.[index] as { conditions?: FareConditionsView | undefined } | undefined;
  const own = slice?.conditions;
  return own ? { conditions: own, own: true } : { conditions: flight.conditions, own: false };
}

/** A penalty in minor units of `currency`; undefined when stated in another currency. */
function penaltyOf(condition: ConditionView | null | undefined, currency: string): number | undefined {
  const penalty = condition?.penalty;
  if (!penalty) return 0;
  return penalty.currency === currency ? minorUnits(String(penalty.amount), currency) : undefined;
}

/**
 * The terms of changing `indices` of `flight`: NOT_CHANGEABLE where a journey's change condition says
 * no (or its penalty is in another currency, so it cannot be stated); the penalties summed — each
 * journey's own, or the trip's once where a journey has none of its own; money back only when every
 * changed journey's fare allows a refund. A condition not stated (bookings sold before conditions were
 * kept) allows the change at no penalty, as such bookings refund in full.
 */
export function changeTerms(
  flight: SoldConditions,
  indices: readonly number[],
  currency: string,
): ChangeTerms {
  let penalty = 0;
  let tripCounted = false;
  let moneyBack = true;
  for (const index of indices) {
    const { conditions, own } = journeyConditions(flight, index);
    const change = conditions?.change_before_departure;
    if (change && !change.allowed)
      throw new NotChangeableError('The fare of this journey does not allow changes.');
    const cents = penaltyOf(change, currency);
    if (cents === undefined)
      throw new NotChangeableError('The change penalty is not stated in the booking’s currency.');
    if (own || !tripCounted) penalty += cents;
    tripCounted ||= !own;
    if (conditions?.refund_before_departure?.allowed === false) moneyBack = false;
  }
  return { penalty, moneyBack };
}

/**
 * The booking's trip as a change reads it, after the checks of docs/API.md §4.9: CONFIRMED (NOT_CHANGEABLE
 * otherwise), a network booking (a remote supplier's changes are not sold here yet), every journey to
 * change not yet departed at `now`.
 */
export function changeableTrip(record: BookingRecord, indices: readonly number[], now: number): BookedTrip {
  if (record.status !== 'CONFIRMED')
    throw new NotChangeableError(`A ${record.status} booking cannot be changed.`);
  if (record.supplier) throw new NotChangeableError('Changes of this supplier’s bookings are not available.');
  const flight = soldFlight(record.flight);
  const lengths = flight.slices.map((slice) => slice.segments.length);
  const journeys = bookedJourneys(record.segments, lengths, {
    travelClass: record.travel_class,
    passengers: flight.passengers,
    extras: journeyExtras(record, lengths, record.currency),
  });
  if (!journeys) throw new NotChangeableError('A flight of this booking is no longer in the schedule.');
  for (const index of indices) {
    const first = journeys[index]?.segments[0];
    if (first && first.departureAt <= now) throw new NotChangeableError('This journey has departed.');
  }
  return {
    travelClass: record.travel_class,
    passengers: flight.passengers,
    journeys,
    multiCity: flight.slices.length > 1 && flight.inbound === undefined,
  };
}
