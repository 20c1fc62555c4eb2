import type { BookingView } from '../bookings/entity/booking-item.ts';
import type { BookingEvent, EventType } from './booking-event.ts';
import { renderItineraryFor, type TravellerBooking } from './itinerary-sections.ts';

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

/** The traveller's view of a booking: the agency's notes left out. */
const travellerView = ({ notes: _, ...view }: BookingView): TravellerBooking => view;

/**
 * The notice for `event`, or undefined for an event travellers do not hear about. Every value from the
 * booking is escaped in the HTML body: passenger names and agency names are user input.
 */
export function renderNotice(event: BookingEvent, agencyName: string): Notice | undefined {
  if (!NOTICE_TYPES.includes(event.type)) return undefined;
  const { booking } = event;
  const headline = HEADLINES[event.type];
  const deadline = event.type === 'booking.held' ? event.paymentRequiredBy : undefined;
  const { subject, text, html } = renderItineraryFor(travellerView(booking), {
    headline,
    agencyName,
    deadline,
  });
  return {
    eventId: event.id,
    type: event.type,
    to: booking.contact.email,
    bookingId: booking.booking_id,
    pnr: booking.pnr,
    subject,
    text,
    html,
  };
}

/**
 * The itinerary as the confirmation e-mail tells it (booking/itinerary, booking/resend; docs/API.md
 * §4.3), a hold's deadline included. `booking` is the traveller's view: the agency's notes are never in it.
 */
export function renderItinerary(
  booking: TravellerBooking,
  agencyName: string,
): { subject: string; text: string; html: string } {
  const deadline = booking.status === 'HELD' ? booking.payment_required_by : undefined;
  return renderItineraryFor(booking, { headline: 'Your itinerary', agencyName, deadline });
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
