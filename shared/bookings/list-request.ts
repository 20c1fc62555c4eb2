import * as z from 'zod/mini';
import { isCalendarDate } from '../flights/local-time.ts';
import { readListPosition } from './entity/booking-item.ts';
import '../zod-locale.ts';

/** Code points, as every text limit counts them (docs/API.md §1). */
const codePoints = (text: string) => [...text].length;

/** `q`: 2-64 characters after NFC and trimming. */
const searchText = () =>
  z.string().check(
    z.overwrite((value) => value.normalize('NFC').trim()),
    z.refine((value) => codePoints(value) >= 2 && codePoints(value) <= 64, 'must be 2-64 characters'),
    z.meta({
      description:
        'A PNR, a passenger’s whole last name, or the contact e-mail: 2-64 characters (code points after NFC, surrounding spaces ignored); case and accents are ignored (`muller` finds Müller)',
      minLength: 2,
      maxLength: 64,
    }),
  );

const departureDay = (description: string) =>
  z
    .string()
    .check(
      z.refine(isCalendarDate, 'must be a date (YYYY-MM-DD)'),
      z.meta({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description }),
    );

/**
 * booking/list's turn-5 fields (docs/API.md §4.3): search text, the first departure's dates, the
 * caller's own bookings, and the order. Every one given narrows the list; a cursor is bound to them all.
 */
export const listFilterFields = () => ({
  q: z.optional(searchText()),
  departure_from: z.optional(
    departureDay('Only bookings whose first departure is on or after this date (local at its airport)'),
  ),
  departure_to: z.optional(
    departureDay(
      'Only bookings whose first departure is on or before this date (local at its airport); on or after departure_from',
    ),
  ),
  created_by: z.optional(
    z.literal('me').check(z.meta({ description: 'Only the bookings the calling agent made' })),
  ),
  sort: z._default(
    z.enum(['created', 'deadline']).check(
      z.meta({
        description:
          '`created` (default): newest first. `deadline`: the holds still in time (status HELD), soonest payment_required_by first',
      }),
    ),
    'created',
  ),
});

/** A list position from a cursor (the text it was issued with), or undefined when it is not one. */
export const readPosition = (text: string) => (readListPosition(text) ? text : undefined);
