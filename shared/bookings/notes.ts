import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { LimitReachedError, NotFoundError, ServiceUnavailableError } from '../errors.ts';
import '../zod-locale.ts';
import { type BookingRecord, type BookingView, findBooking, readBookingItem } from './entity/booking-item.ts';
import { addNoteUpdate, type StoredNote } from './entity/booking-updates.ts';
import { BookingId, newNoteId } from './entity/ids.ts';
import { readView } from './manage.ts';

/** The most notes a booking holds (docs/API.md §4.3): the 51st is 409 LIMIT_REACHED (docs/decisions.md). */
export const NOTES_MAX = 50;
const TEXT_MAX = 1000;

const codePoints = (text: string) => [...text].length;

/** `{"booking_id", "text"}`: 1-1000 characters (code points after NFC), surrounding spaces trimmed. */
export const noteRequest = () =>
  z.object({
    booking_id: BookingId,
    text: z.string().check(
      z.overwrite((value) => value.normalize('NFC').trim()),
      z.refine(
        (value) => codePoints(value) >= 1 && codePoints(value) <= TEXT_MAX,
        `must be 1-${TEXT_MAX} characters`,
      ),
      z.meta({
        description: `The note: 1-${TEXT_MAX} characters (code points after NFC, surrounding spaces trimmed). Seen by the agency only`,
        minLength: 1,
        maxLength: TEXT_MAX,
      }),
    ),
  });

/** What appending a note may also do: check the booking first (a resend's limit), and record a resend. */
interface NoteOptions {
  readonly check?: (record: BookingRecord, now: number) => void;
  readonly resend?: boolean;
}

/**
 * How often a note that keeps losing to other notes reads the booking again before answering 503: each
 * round one of the notes racing wins, so ten notes at once all land.
 */
const RETRIES = 10;

/**
 * Appends a note by `by` to the agency's booking, after `options.check`, while it has fewer than
 * NOTES_MAX notes: 404 for another agency's or no booking, 409 LIMIT_REACHED when full. Each try reads
 * the booking and appends conditioned on the number of notes read; a note appended meanwhile makes it
 * read again. Answers the stored booking and where the note went.
 */
export async function appendNote(
  deps: TableHandle & { readonly clock: Clock },
  target: {
    bookingId: string;
    agencyId: string;
    by: { id: string; name: string };
    /** The note, or how to word it for the booking read (a resend names its address). */
    text: string | ((record: BookingRecord) => string);
  },
  options: NoteOptions = {},
): Promise<{ record: BookingRecord; note: StoredNote; index: number }> {
  for (let tries = 0; tries < RETRIES; tries++) {
    const record = await findBooking(deps, target.bookingId, target.agencyId);
    if (!record) throw new NotFoundError('No such booking in your agency.');
    const now = deps.clock.now();
    options.check?.(record, now);
    const seen = record.notes?.length ?? 0;
    if (seen >= NOTES_MAX)
      throw new LimitReachedError(`This booking has ${NOTES_MAX} notes, the most it can hold.`);
    const note = {
      id: newNoteId(now),
      text: typeof target.text === 'string' ? target.text : target.text(record),
      created_at: isoSeconds(now),
      created_by: target.by,
    };
    const update = addNoteUpdate(
      deps.tableName,
      { booking_id: record.booking_id, agency_id: target.agencyId, seen },
      note,
      options.resend ? note.created_at : undefined,
    );
    try {
      const { Attributes } = await deps.db.send(new UpdateCommand(update));
      const stored = Attributes && readBookingItem(Attributes);
      if (stored) return { record: stored, note, index: seen };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
  throw new ServiceUnavailableError(1);
}

/** `POST /api/flights/booking/note`: any agent of the agency; answers the Booking with its notes. */
export function addBookingNote(deps: TableHandle & { readonly clock: Clock }) {
  return async (body: z.output<ReturnType<typeof noteRequest>>, session: Session): Promise<BookingView> => {
    const by = { id: session.agentId, name: session.agentName };
    const { record } = await appendNote(deps, {
      bookingId: body.booking_id,
      agencyId: session.agencyId,
      by,
      text: body.text,
    });
    return readView(deps, record);
  };
}
