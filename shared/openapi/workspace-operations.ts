import { NOTES_MAX, noteRequest } from '../bookings/notes.ts';
import { itineraryRequest, RESENDS_PER_HOUR, resendRequest } from '../events/itinerary.ts';
import { renderItinerary } from '../events/notice.ts';
import { booking } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, Itinerary, success } from './responses.ts';

const note = {
  id: 'note_01KAQZ9X3M4T7V2B8C6N0PQRSW',
  text: 'Traveller asked for an aisle seat; call back after 14:00.',
  created_at: '2026-11-24T10:15:00Z',
  created_by: booking.created_by,
};

/** The bookings workspace's routes (docs/API.md §4.3, turn 5): notes, the itinerary, its resend. */
export const workspaceOperations = {
  'booking-note': {
    summary: 'Add a note to a booking',
    description: `Appends the agency’s note (any agent of the agency) and answers the Booking with its notes, oldest first. A booking holds at most ${NOTES_MAX} notes: the next is 409 LIMIT_REACHED. Notes never reach the traveller or a webhook. Another agency’s booking is 404.`,
    tag: 'Bookings',
    request: noteRequest(),
    requestExample: { booking_id: booking.booking_id, text: note.text },
    status: 201,
    response: success(Booking),
    responseExample: { success: true, data: { ...booking, notes: [note] } },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'LIMIT_REACHED', 'SERVICE_UNAVAILABLE'],
  },
  'booking-itinerary': {
    summary: 'The itinerary of a booking',
    description:
      'The traveller’s itinerary as the confirmation e-mail tells it: PNR, every segment in local and UTC time, passengers, price, status, a hold’s deadline and the fare conditions it was sold with; as a subject, a text and an HTML body (every value escaped), for the console’s print view. Never the agency’s notes. Another agency’s booking is 404.',
    tag: 'Bookings',
    request: itineraryRequest(),
    requestExample: { booking_id: booking.booking_id },
    status: 200,
    response: success(Itinerary),
    responseExample: {
      success: true,
      data: renderItinerary(
        { ...booking, status: 'CONFIRMED', passengers: [...booking.passengers] },
        'Acme Travel',
      ),
    },
    errors: ['UNAUTHORIZED', 'NOT_FOUND'],
  },
  'booking-resend': {
    summary: 'E-mail the itinerary again',
    description: `Sends the current itinerary (as booking/itinerary gives it) to the booking’s contact e-mail, or to \`email\`, from the stage’s notice sender, within the request: 202 once the e-mail service took it, with the Booking whose notes end with the line recording it (by the calling agent). At most ${RESENDS_PER_HOUR} per booking per hour: 429 RATE_LIMITED with Retry-After. It counts as a note (409 LIMIT_REACHED when the booking has ${NOTES_MAX}). An address the e-mail service refuses is 400 on email; an e-mail service failure 503, and nothing is recorded.`,
    tag: 'Bookings',
    request: resendRequest(),
    requestExample: { booking_id: booking.booking_id },
    status: 202,
    response: success(Booking),
    responseExample: {
      success: true,
      data: {
        ...booking,
        notes: [{ ...note, text: `Itinerary sent again to ${booking.contact.email}.` }],
      },
    },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'LIMIT_REACHED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, Operation>;
