import { NOTES_MAX, noteRequest } from '../bookings/notes.ts';
import { booking } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, success } from './responses.ts';

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
} satisfies Record<string, Operation>;
