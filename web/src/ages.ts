import type { Schemas } from './api.ts';
import { isIsoDate } from './time.ts';

/**
 * Passenger ages checked in the page before a booking is sent (docs/console.md, Forgiving input), by
 * the service's own rule (docs/API.md §4.2): the age on the first departure's date decides the type.
 */
type PaxType = Schemas['Passenger']['pax_type'];

/** Whole years between `bornOn` and `onDate` (both `YYYY-MM-DD`). */
function ageOn(bornOn: string, onDate: string): number {
  const years = Number(onDate.slice(0, 4)) - Number(bornOn.slice(0, 4));
  return onDate.slice(5) < bornOn.slice(5) ? years - 1 : years;
}

const AGES: Record<PaxType, { min: number; max: number; text: string }> = {
  ADULT: { min: 12, max: 150, text: 'An adult must be 12 or older on the day of the first flight' },
  CHILD: { min: 2, max: 11, text: 'A child must be 2 to 11 years old on the day of the first flight' },
  INFANT: { min: 0, max: 1, text: 'An infant must be under 2 on the day of the first flight' },
};

/**
 * What is wrong with a birth date typed for a passenger of `type` flying first on `firstDeparture`
 * (`YYYY-MM-DD`, the local day at the first airport), or undefined when it fits.
 */
export function birthDateProblem(
  type: PaxType,
  bornOn: string,
  firstDeparture: string,
  today: string,
): string | undefined {
  if (bornOn === '') return 'Enter the date of birth (YYYY-MM-DD).';
  if (!isIsoDate(bornOn)) return 'Write the date as YYYY-MM-DD, e.g. 1980-06-23.';
  if (bornOn >= today) return 'The date of birth must be in the past.';
  const age = ageOn(bornOn, firstDeparture);
  const rule = AGES[type];
  if (age < rule.min || age > rule.max) return `${rule.text} (${firstDeparture}): this passenger is ${age}.`;
  return undefined;
}
