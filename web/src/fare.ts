import { type Baggage, type Conditions, formatMoney, type PriceLine } from './offers.ts';

/**
 * What a fare includes, said plainly (docs/console.md, What is being sold): conditions with their fees,
 * the price per passenger type, the bags included, how long a hold lasts. Pure text, for the Book
 * screen's parts (screens/fare-details.tsx) and their tests.
 */

type Condition = NonNullable<Conditions['refund_before_departure']>;

/** A condition as a phrase and whether it is good news: `Refundable (fee €50.00)`, `Not refundable`. */
function conditionText(
  condition: Condition | null,
  yes: string,
  no: string,
): { text: string; good: boolean } | undefined {
  if (!condition) return undefined;
  if (!condition.allowed) return { text: no, good: false };
  const { penalty } = condition;
  if (!penalty) return { text: yes, good: true };
  if (penalty.amount === 0) return { text: `${yes} (free)`, good: true };
  return { text: `${yes} (fee ${formatMoney(penalty.amount, penalty.currency)})`, good: true };
}

/** Refund and change, each as {@link conditionText}; the ones the supplier does not state are left out. */
export function conditionsText(conditions: Conditions | null | undefined) {
  if (!conditions) return [];
  return [
    conditionText(conditions.refund_before_departure, 'Refundable', 'Not refundable'),
    conditionText(conditions.change_before_departure, 'Changes allowed', 'No changes'),
  ].filter((said) => said !== undefined);
}

const PAX_PLURAL: Record<PriceLine['pax_type'], [string, string]> = {
  ADULT: ['adult', 'adults'],
  CHILD: ['child', 'children'],
  INFANT: ['infant', 'infants'],
};

/** `2 adults`, `1 infant`. */
const paxCount = (type: PriceLine['pax_type'], count: number): string =>
  `${count} ${PAX_PLURAL[type][count === 1 ? 0 : 1]}`;

/** One row of the price breakdown as text: who, base, taxes (`–` where the supplier does not split), total. */
export function priceRow(line: PriceLine, currency: string) {
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, currency));
  return {
    who: paxCount(line.pax_type, line.count),
    base: money(line.base),
    taxes: money(line.taxes),
    total: money(line.total),
  };
}

/** The bags included for one passenger type: `1 carry-on, 2 checked bags`, `no bags included`. */
function baggageText(bags: Baggage): string {
  const parts = [
    bags.carry_on > 0 && `${bags.carry_on} carry-on`,
    bags.checked > 0 && `${bags.checked} checked bag${bags.checked === 1 ? '' : 's'}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'no bags included' : parts.join(', ');
}

/** A journey's included bags by passenger type: `adult: 1 carry-on, 1 checked bag; infant: no bags`. */
export function baggageLine(bags: readonly Baggage[]): string {
  return bags.map((bag) => `${PAX_PLURAL[bag.pax_type][0]}: ${baggageText(bag)}`).join('; ');
}

/** A hold's length: `24 hours`, `5 hours 30 minutes`, `1 hour`. */
export function holdLengthText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rest === 0 ? h : `${h} ${rest} minute${rest === 1 ? '' : 's'}`;
}
