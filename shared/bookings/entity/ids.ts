import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A booking id as issued (a pattern to embed in others: no anchors). */
export const BOOKING_ID_PATTERN = 'bkg_[0-9A-HJKMNP-TV-Z]{26}';

/** A booking id in a request: exactly as issued. */
export const BookingId = z
  .string()
  .check(z.regex(new RegExp(`^${BOOKING_ID_PATTERN}$`), 'must be a booking id (bkg_…)'));

/**
 * `bkg_` + a ULID: 48 bits of milliseconds then 80 random bits, in Crockford base 32. Booking ids
 * sort by creation time and are unguessable.
 *
 * @example newBookingId(Date.now()) // 'bkg_01JDQ7Z5W4T3V9X8YB2C6N0PQR'
 */
export function newBookingId(epochMillis: number): string {
  let time = '';
  let t = epochMillis;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  const bytes = randomBytes(16);
  for (let i = 0; i < 16; i++) random += CROCKFORD[(bytes[i] ?? 0) % 32];
  return `bkg_${time}${random}`;
}

/** A note's id (booking/note): `note_` + a ULID, as a booking id's. */
export const newNoteId = (epochMillis: number) => `note_${newBookingId(epochMillis).slice('bkg_'.length)}`;
