import type { Schemas } from './api.ts';
import {
  type Baggage,
  type Conditions,
  formatMoney,
  journeyName,
  type PriceLine,
  slicesOf,
} from './offers.ts';

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

type Booking = Schemas['Booking'];
/** A row of a Booking's own breakdown: the fare's rows, then the bags' and seats' (`service`). */
type BookedPriceLine = NonNullable<Booking['price_breakdown']>[number];

const SERVICE_NOUNS: Record<NonNullable<BookedPriceLine['service']>, [string, string]> = {
  bags: ['bag', 'bags'],
  seats: ['seat', 'seats'],
};

/** Who a row is for: `2 adults`; a service's row counts its bags or seats: `1 bag for adults`. */
function rowWho(line: PriceLine | BookedPriceLine): string {
  const service = 'service' in line ? line.service : undefined;
  if (!service) return paxCount(line.pax_type, line.count);
  const noun = SERVICE_NOUNS[service][line.count === 1 ? 0 : 1];
  return `${line.count} ${noun} for ${PAX_PLURAL[line.pax_type][1]}`;
}

/**
 * One row of the price breakdown as text: who, base, taxes (`–` where the supplier does not split),
 * total, and whether it is a bag or seat row (said as its total alone: it has no fare or taxes).
 */
export function priceRow(line: PriceLine | BookedPriceLine, currency: string) {
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, currency));
  return {
    service: 'service' in line && line.service !== undefined,
    who: rowWho(line),
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

/** A segment of the booked flight by its place in the whole trip: `BA117 LHR–JFK`. */
function segmentLabel(flight: Booking['flight'], index: number): string {
  const segment = slicesOf(flight).flatMap((slice) => slice.segments)[index];
  return segment
    ? `${segment.flight_number} ${segment.origin}–${segment.destination}`
    : `flight ${index + 1}`;
}

/**
 * What a passenger of a booking has beyond the fare (docs/API.md §4.10): each seat with its flight and
 * price (`Seat 12A on BA117 LHR–JFK, €20.00`), each bag bought with its journey and price per bag
 * (`1 checked bag of 23 kg, Outbound, €60.00 each`).
 */
export function extrasLines(booking: Booking, passengerIndex: number): string[] {
  const seats = (booking.passengers[passengerIndex]?.seats ?? []).map(
    (seat) =>
      `Seat ${seat.designator} on ${segmentLabel(booking.flight, seat.segment_index)}, ${formatMoney(seat.price.amount, seat.price.currency)}`,
  );
  const bags = (booking.services ?? [])
    .filter((bag) => bag.passenger_index === passengerIndex)
    .map(
      (bag) =>
        `${bag.quantity} checked bag${bag.quantity === 1 ? '' : 's'} of ${bag.weight_kg} kg, ${journeyName(booking.flight, bag.journey_index)}, ${formatMoney(bag.price.amount, bag.price.currency)} each`,
    );
  return [...seats, ...bags];
}
