import type { BookingView } from '../bookings/entity/booking-item.ts';
import { findAirport } from '../flights/airports.ts';
import type { FareConditionsView } from '../flights/fare-conditions.ts';
import { localDateAt, localTimeAt } from '../flights/local-time.ts';
import type { RefundTo } from '../supply/port.ts';
import { zoneName } from './zone-name.ts';

/**
 * The traveller's itinerary (docs/API.md §4.3, §4.6), the one builder behind every notice and the
 * itinerary an agent prints or resends: a list of sections, each told as text and as HTML with every
 * value escaped. A new part of the itinerary (services, seats) is one more entry of SECTIONS.
 */

/** The booking as the traveller sees it: the agency's notes are never in it. */
export type TravellerBooking = Omit<BookingView, 'notes'>;

/** What an itinerary is told for: its headline, the agency, and a hold's deadline where one applies. */
interface ItineraryContext {
  readonly headline: string;
  readonly agencyName: string;
  readonly deadline?: string | undefined;
}

/** One part of the itinerary: a title (none for the opening lines) and its lines. */
interface Section {
  readonly title?: string;
  readonly lines: readonly string[];
}

type SectionOf = (booking: TravellerBooking, context: ItineraryContext) => Section[];

/** `412.40 EUR`. */
const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;
/** A supplier's amount that may be unstated: `–` where it is null. */
const maybe = (amount: number | null) => (amount === null ? '–' : amount.toFixed(2));
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** `2026-12-01 13:30 GMT local time (2026-12-01 13:30 UTC)`: the airport's wall clock, named, then UTC. */
function when(iso: string, airportCode: string): string {
  const at = Date.parse(iso);
  const zone = findAirport(airportCode)?.timeZone;
  if (!zone) return utc(iso);
  return `${localDateAt(zone, at)} ${localTimeAt(zone, at)} ${zoneName(zone, at)} local time (${utc(iso)})`;
}

const reference: SectionOf = (booking, { headline, agencyName, deadline }) => [
  {
    lines: [
      `${headline}.`,
      '',
      `Booking reference (PNR): ${booking.pnr ?? booking.booking_id}`,
      `Booked through: ${agencyName}`,
      `Status: ${booking.status.toLowerCase()}`,
      ...(deadline ? [`Pay by: ${utc(deadline)}, or the seats are released`] : []),
    ],
  },
];

type Condition = FareConditionsView['refund_before_departure'];

/** `allowed, penalty 50.00 EUR` / `not allowed` / `not stated by the airline`. */
function conditionText(condition: Condition): string {
  if (!condition) return 'not stated by the airline';
  if (!condition.allowed) return 'not allowed';
  return condition.penalty && condition.penalty.amount > 0
    ? `allowed, fee ${money(condition.penalty.amount, condition.penalty.currency)}`
    : 'allowed, free of charge';
}

const conditionLines = (conditions: FareConditionsView, indent: string) => [
  `${indent}Refund before departure: ${conditionText(conditions.refund_before_departure)}`,
  `${indent}Change before departure: ${conditionText(conditions.change_before_departure)}`,
];

const stated = (conditions: FareConditionsView | undefined): conditions is FareConditionsView =>
  !!conditions && (!!conditions.refund_before_departure || !!conditions.change_before_departure);

/** A journey as a booking holds it (stored before journeys carried conditions, bags or a brand: absent). */
interface Journey {
  readonly segments: TravellerBooking['flight']['outbound']['segments'];
  readonly conditions?: FareConditionsView | undefined;
  readonly baggage?: readonly { pax_type: string; carry_on: number; checked: number }[] | undefined;
  readonly fare_brand?: string | null | undefined;
}

/** The journeys with their labels: numbered for a multi-city trip, Outbound and Return otherwise. */
function labelledJourneys(flight: TravellerBooking['flight']): [string, Journey][] {
  const { outbound, inbound, slices } = flight;
  if (!inbound && slices && slices.length > 1) return slices.map((slice, i) => [`Journey ${i + 1}`, slice]);
  return inbound
    ? [
        ['Outbound', outbound],
        ['Return', inbound],
      ]
    : [['Outbound', outbound]];
}

/** `adult: 1 carry-on, 1 checked; child: 1 carry-on, 0 checked`, or not stated. */
function baggageText(baggage: Journey['baggage']): string {
  if (!baggage || baggage.length === 0) return 'not stated by the airline';
  return baggage
    .map((row) => `${row.pax_type.toLowerCase()}: ${row.carry_on} carry-on, ${row.checked} checked`)
    .join('; ');
}

/**
 * Every journey: its segments in local and UTC time, its fare brand, bags included, and its own fare
 * conditions (where the supplier states them per journey; otherwise the trip's, given once below).
 */
const journeys: SectionOf = (booking) => {
  const perJourney = labelledJourneys(booking.flight).every(([, journey]) => stated(journey.conditions));
  return labelledJourneys(booking.flight).map(([label, journey]) => ({
    title: label,
    lines: [
      ...journey.segments.flatMap((s) => [
        `${s.flight_number} (${s.carrier_name}) ${s.origin} to ${s.destination}`,
        `  departs ${when(s.departure_at, s.origin)}`,
        `  arrives ${when(s.arrival_at, s.destination)}`,
      ]),
      ...(journey.fare_brand ? [`Fare: ${journey.fare_brand}`] : []),
      `Bags included per passenger: ${baggageText(journey.baggage)}`,
      ...(perJourney && journey.conditions ? conditionLines(journey.conditions, '') : []),
    ],
  }));
};

/** The trip's conditions, where its journeys do not each state their own. */
const tripConditions: SectionOf = (booking) =>
  labelledJourneys(booking.flight).every(([, journey]) => stated(journey.conditions))
    ? []
    : [{ title: 'Fare conditions (whole trip)', lines: conditionLines(booking.flight.conditions, '') }];

/** A passenger's chosen seats (docs/API.md §4.10), segment by segment: `, seat 16A (flight 1)`. */
const seatsText = (p: TravellerBooking['passengers'][number]) =>
  p.seats?.length
    ? `, seat${p.seats.length > 1 ? 's' : ''} ${p.seats.map((s) => `${s.designator} (flight ${s.segment_index + 1})`).join(', ')}`
    : '';

const passengers: SectionOf = (booking) => [
  {
    title: 'Passengers',
    lines: booking.passengers.map(
      (p) => `${p.first_name} ${p.last_name} (${p.pax_type.toLowerCase()})${seatsText(p)}`,
    ),
  },
];

/** The bags bought (docs/API.md §4.10), one line each: how many, for whom, on which journey. */
const bags: SectionOf = (booking) => {
  const bought = booking.services ?? [];
  if (bought.length === 0) return [];
  const lines = bought.map((bag) => {
    const p = booking.passengers[bag.passenger_index];
    const who = p ? `${p.first_name} ${p.last_name}` : `passenger ${bag.passenger_index + 1}`;
    return `${bag.quantity} x ${bag.weight_kg} kg, ${who}, journey ${bag.journey_index + 1}`;
  });
  return [{ title: 'Checked bags', lines }];
};

const PAX_NAMES = { ADULT: ['adult', 'adults'], CHILD: ['child', 'children'], INFANT: ['infant', 'infants'] };

/** `2 adults: base 300.00, taxes 50.00, total 350.00 EUR` (`–` where the supplier gives none). */
function priceRowText(row: TravellerBooking['flight']['price_breakdown'][number], currency: string): string {
  const [one, many] = PAX_NAMES[row.pax_type];
  const who = `${row.count} ${row.count === 1 ? one : many}`;
  return `${who}: base ${maybe(row.base)}, taxes ${maybe(row.taxes)}, total ${maybe(row.total)} ${currency}`;
}

const price: SectionOf = (booking) => [
  {
    title: 'Price',
    lines: [
      ...booking.flight.price_breakdown.map((row) => priceRowText(row, booking.currency)),
      `Total price: ${money(booking.total_price, booking.currency)}`,
    ],
  },
];

/** Where a cancellation's money goes, in words (docs/API.md §4.3, `refund_to`). */
const REFUND_TO_WORDS: Record<RefundTo, string> = {
  balance: 'to your travel agency’s account',
  card: 'to the card that paid',
  voucher: 'as a voucher',
  airline_credits: 'as airline credits',
  arc_bsp_cash: 'in cash through the travel agency’s airline settlement (ARC/BSP)',
  awaiting_payment: 'nothing to refund: it was never paid',
};

/** `Airline credit ABC123: 100.00 EUR, expires 2027-06-01 00:00 UTC` (code to follow while not issued). */
function creditText(credit: NonNullable<TravellerBooking['airline_credits']>[number]): string {
  const code = credit.code ?? '(code to follow)';
  const expiry = credit.expires_at ? `, expires ${utc(credit.expires_at)}` : ', no expiry stated';
  return `Airline credit ${code}: ${money(credit.amount, credit.currency)}${expiry}`;
}

/** A cancelled booking's refund as the supplier stated it: unknown is said so, never 0. */
const cancellation: SectionOf = (booking) => {
  if (booking.status !== 'CANCELLED') return [];
  const { refund, refund_to: to, airline_credits: credits = [] } = booking;
  const amount =
    refund === undefined
      ? []
      : [`Refund: ${refund ? money(refund.amount, refund.currency) : 'not yet known'}`];
  const where = to ? [`Refunded ${REFUND_TO_WORDS[to]}`] : [];
  const lines = [...amount, ...where, ...credits.map(creditText)];
  return lines.length > 0 ? [{ title: 'Cancellation', lines }] : [];
};

const closing: SectionOf = (booking, { agencyName }) => [
  {
    lines: [
      `Questions about this booking? Contact ${agencyName} and quote ${booking.pnr ?? booking.booking_id}.`,
    ],
  },
];

/** The itinerary's parts in order. */
const SECTIONS: readonly SectionOf[] = [
  reference,
  journeys,
  tripConditions,
  passengers,
  bags,
  price,
  cancellation,
  closing,
];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const textOf = (sections: readonly Section[]) =>
  sections
    .map((section) =>
      section.title ? [`${section.title}:`, ...section.lines.map((line) => `  ${line}`)] : section.lines,
    )
    .map((lines) => lines.join('\n'))
    .join('\n\n');

/** The HTML body: the headline, then each section (its title a heading), every value escaped. */
const htmlOf = (headline: string, sections: readonly Section[]) =>
  [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h1>${escapeHtml(headline)}</h1>`,
    ...sections.map((section, i) => {
      const lines = i === 0 ? section.lines.slice(2) : section.lines;
      const heading = section.title ? `<h2>${escapeHtml(section.title)}</h2>` : '';
      return `${heading}<pre style="font-family:inherit">${escapeHtml(lines.join('\n'))}</pre>`;
    }),
    '</body></html>',
  ].join('\n');

/** The itinerary of `booking` told for `context`: subject, text and HTML. */
export function renderItineraryFor(
  booking: TravellerBooking,
  context: ItineraryContext,
): { subject: string; text: string; html: string } {
  const sections = SECTIONS.flatMap((section) => section(booking, context));
  return {
    subject: `${context.headline}: ${booking.pnr ?? booking.booking_id} (${context.agencyName})`,
    text: textOf(sections),
    html: htmlOf(context.headline, sections),
  };
}
