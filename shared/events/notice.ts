import type { BookingView } from '../bookings/entity/booking-item.ts';
import { findAirport } from '../flights/airports.ts';
import { localDateAt, localTimeAt } from '../flights/local-time.ts';
import type { BookingEvent, EventType } from './booking-event.ts';

/**
 * The traveller's e-mail about one event (docs/API.md §4.6): subject, text and HTML bodies. An
 * itinerary an agent sends again (booking/resend) is one too: type `booking.itinerary`, its id the note's.
 */
export interface Notice {
  readonly eventId: string;
  readonly type: EventType | 'booking.itinerary';
  readonly to: string;
  readonly bookingId: string;
  /** Null only for a remote supplier's booking that never got a record locator (no notice is sent then). */
  readonly pnr: string | null;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The events a traveller hears about; `booking.failed` is the agency's business (it never booked). */
export const NOTICE_TYPES: readonly EventType[] = [
  'booking.confirmed',
  'booking.held',
  'booking.cancelled',
  'booking.expired',
  'booking.changed',
];

const HEADLINES: Record<EventType, string> = {
  'booking.confirmed': 'Your booking is confirmed',
  'booking.held': 'Your seats are held',
  'booking.cancelled': 'Your booking is cancelled',
  'booking.expired': 'Your held booking has expired',
  'booking.failed': 'Your booking could not be completed',
  'booking.changed': 'Your flights have changed: here is your new itinerary',
};

/** `2026-12-01 13:30 local (13:30 UTC)`: the airport's wall clock, then UTC. */
function when(iso: string, airportCode: string): string {
  const at = Date.parse(iso);
  const utc = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const zone = findAirport(airportCode)?.timeZone;
  return zone ? `${localDateAt(zone, at)} ${localTimeAt(zone, at)} local time (${utc})` : utc;
}

/** `412.40 EUR`. */
const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

function lines(booking: BookingView, agencyName: string, headline: string, deadline?: string): string[] {
  const { outbound, inbound, slices } = booking.flight;
  // Every journey of a multi-city trip, numbered; a one-way or return trip as before.
  const directions =
    !inbound && slices && slices.length > 1
      ? slices.map((slice, i) => [`Journey ${i + 1}`, slice] as const)
      : ([
          ['Outbound', outbound],
          ['Return', inbound],
        ] as const);
  return [
    `${headline}.`,
    '',
    `Booking reference (PNR): ${booking.pnr}`,
    `Booked through: ${agencyName}`,
    ...(deadline
      ? [`Pay by: ${deadline.slice(0, 10)} ${deadline.slice(11, 16)} UTC, or the seats are released`]
      : []),
    '',
    ...directions.flatMap(([label, direction]) =>
      direction
        ? [
            `${label}:`,
            ...direction.segments.flatMap((s) => [
              `  ${s.flight_number} (${s.carrier_name}) ${s.origin} to ${s.destination}`,
              `    departs ${when(s.departure_at, s.origin)}`,
              `    arrives ${when(s.arrival_at, s.destination)}`,
            ]),
            '',
          ]
        : [],
    ),
    'Passengers:',
    ...booking.passengers.map(
      (p) => `  ${p.first_name} ${p.last_name} (${p.pax_type.toLowerCase()})${seatsText(p)}`,
    ),
    ...bagLines(booking),
    '',
    `Total price: ${money(booking.total_price, booking.currency)}`,
    '',
    `Questions about this booking? Contact ${agencyName} and quote ${booking.pnr}.`,
  ];
}

/** A passenger's chosen seats (docs/API.md §4.10), segment by segment: `, seats 16A (flight 1)`. */
const seatsText = (p: BookingView['passengers'][number]) =>
  p.seats?.length
    ? `, seat${p.seats.length > 1 ? 's' : ''} ${p.seats.map((s) => `${s.designator} (flight ${s.segment_index + 1})`).join(', ')}`
    : '';

/** The bags bought, one line each: how many, for whom, on which journey. */
function bagLines(booking: BookingView): string[] {
  const bags = booking.services ?? [];
  if (bags.length === 0) return [];
  return [
    '',
    'Checked bags:',
    ...bags.map((bag) => {
      const p = booking.passengers[bag.passenger_index];
      const who = p ? `${p.first_name} ${p.last_name}` : `passenger ${bag.passenger_index + 1}`;
      return `  ${bag.quantity} x ${bag.weight_kg} kg, ${who}, journey ${bag.journey_index + 1}`;
    }),
  ];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML body of an e-mail whose text is `text` (its first two lines, headline and blank, left out). */
const htmlOf = (headline: string, text: readonly string[]) =>
  [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h1>${escapeHtml(headline)}</h1>`,
    '<pre style="font-family:inherit">',
    escapeHtml(text.slice(2).join('\n')),
    '</pre></body></html>',
  ].join('\n');

/**
 * The notice for `event`, or undefined for an event travellers do not hear about. Every value from the
 * booking is escaped in the HTML body: passenger names and agency names are user input.
 */
export function renderNotice(event: BookingEvent, agencyName: string): Notice | undefined {
  if (!NOTICE_TYPES.includes(event.type)) return undefined;
  const { booking } = event;
  const headline = HEADLINES[event.type];
  const text = lines(
    booking,
    agencyName,
    headline,
    event.type === 'booking.held' ? event.paymentRequiredBy : undefined,
  );
  const html = htmlOf(headline, text);
  return {
    eventId: event.id,
    type: event.type,
    to: booking.contact.email,
    bookingId: booking.booking_id,
    pnr: booking.pnr,
    subject: `${headline}: ${booking.pnr ?? booking.booking_id} (${agencyName})`,
    text: text.join('\n'),
    html,
  };
}

/** `allowed, penalty 50.00 EUR` / `not allowed` / `not stated`. */
function conditionText(
  condition: { allowed: boolean; penalty: { amount: number; currency: string } | null } | null,
) {
  if (!condition) return 'not stated by the airline';
  if (!condition.allowed) return 'not allowed';
  return condition.penalty && condition.penalty.amount > 0
    ? `allowed, penalty ${money(condition.penalty.amount, condition.penalty.currency)}`
    : 'allowed, free of charge';
}

/**
 * The itinerary as the confirmation e-mail tells it (booking/itinerary, booking/resend; docs/API.md
 * §4.3): the same lines (PNR, every segment in local and UTC time, passengers, price, the deadline of
 * a hold), its status, and the fare conditions it was sold with. `booking` is the traveller's view:
 * the agency's notes are never in it. Every value is escaped in the HTML body.
 */
export function renderItinerary(
  booking: Omit<BookingView, 'notes'>,
  agencyName: string,
): { subject: string; text: string; html: string } {
  const headline = 'Your itinerary';
  const { refund_before_departure: refund, change_before_departure: change } = booking.flight.conditions;
  const text = [
    ...lines(
      booking,
      agencyName,
      headline,
      booking.status === 'HELD' ? booking.payment_required_by : undefined,
    ).slice(0, -1),
    `Status: ${booking.status.toLowerCase()}`,
    'Fare conditions:',
    `  Refund before departure: ${conditionText(refund)}`,
    `  Change before departure: ${conditionText(change)}`,
    '',
    `Questions about this booking? Contact ${agencyName} and quote ${booking.pnr ?? booking.booking_id}.`,
  ];
  return {
    subject: `${headline}: ${booking.pnr ?? booking.booking_id} (${agencyName})`,
    text: text.join('\n'),
    html: htmlOf(headline, text),
  };
}

/**
 * SES refused the notice's address for good (docs/API.md §4.6): a malformed address, or one SES will
 * not send to. Sending it again cannot help, so it is logged and not retried; every other refusal (the
 * sandbox, an unverified sender, a paused account, access denied) is the stage's to fix and is tried
 * again. Carries only the error's name: SES's own message can name the traveller's address.
 */
export class NoticeRefusedError extends Error {
  override name = 'NoticeRefusedError';
  readonly reason: string;
  constructor(reason: string) {
    super('the notice was refused');
    this.reason = reason;
  }
}
