import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readAgencyName } from '../agency/agency-counters-item.ts';
import { IDENTIFIER_FORMS, normalizeIdentifier } from '../auth/identifier.ts';
import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { NotFoundError, RateLimitedError, ServiceUnavailableError, ValidationError } from '../errors.ts';
import '../zod-locale.ts';
import { type BookingRecord, type BookingView, findBooking } from '../bookings/entity/booking-item.ts';
import { takeBackNoteUpdate } from '../bookings/entity/booking-updates.ts';
import { BookingId } from '../bookings/entity/ids.ts';
import { readView } from '../bookings/manage.ts';
import { appendNote } from '../bookings/notes.ts';
import { NoticeRefusedError, renderItinerary } from './notice.ts';
import type { NoticeSender } from './notice-sender.ts';

/** Resends of one booking's itinerary per rolling hour (docs/API.md §4.3): the sixth is 429. */
export const RESENDS_PER_HOUR = 5;
const HOUR = 3600_000;

export const itineraryRequest = () => z.object({ booking_id: BookingId });

export const resendRequest = () =>
  z.object({
    booking_id: BookingId,
    email: z.optional(
      z.pipe(
        z.string().check(
          z.meta({
            ...IDENTIFIER_FORMS.EMAIL,
            description: 'Where to send it instead of the booking’s contact e-mail',
          }),
        ),
        z.transform((value, ctx) => {
          const result = normalizeIdentifier(value, 'EMAIL');
          if (result.ok) return result.identifier;
          ctx.issues.push({ code: 'custom', message: result.message, input: value });
          return z.NEVER;
        }),
      ),
    ),
  });

/** The traveller's view of a booking: the agency's notes left out. */
const travellerView = ({ notes: _, ...view }: BookingView) => view;

/** `POST /api/flights/booking/itinerary`: the itinerary as the confirmation e-mail tells it. */
export function bookingItinerary(deps: TableHandle & { readonly clock: Clock }) {
  return async (body: z.output<ReturnType<typeof itineraryRequest>>, { agencyId }: Session) => {
    const record = await findBooking(deps, body.booking_id, agencyId);
    if (!record) throw new NotFoundError('No such booking in your agency.');
    const [view, agencyName] = await Promise.all([readView(deps, record), readAgencyName(deps, agencyId)]);
    return renderItinerary(travellerView(view), agencyName);
  };
}

/** 429 once RESENDS_PER_HOUR resends of `record` fall within the hour before `now`. */
function checkResendLimit(record: BookingRecord, now: number) {
  const recent = (record.resent_at ?? []).filter((at) => Date.parse(at) > now - HOUR);
  const oldest = recent[recent.length - RESENDS_PER_HOUR];
  if (oldest === undefined) return;
  throw new RateLimitedError(
    (Date.parse(oldest) + HOUR - now) / 1000,
    `This itinerary was sent ${RESENDS_PER_HOUR} times in the last hour; try again later.`,
  );
}

/** Takes back a resend's note and slot that the sender did not take (already gone: nothing to do). */
async function takeBack(deps: TableHandle, record: BookingRecord, note: { index: number; noteId: string }) {
  const resends = record.resent_at?.length ?? 1;
  const update = takeBackNoteUpdate(
    deps.tableName,
    { booking_id: record.booking_id, index: note.index, resends },
    note.noteId,
  );
  try {
    await deps.db.send(new UpdateCommand(update));
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/**
 * `POST /api/flights/booking/resend`: the current itinerary e-mailed again, to the contact or to
 * `email`, through the notices' sender (SES; notices.jsonl locally), sent within the request. The
 * note recording it is written first, conditioned on the notes read, and so is the limit's slot (5 per
 * booking per hour); if the sender fails, the note is taken back: a refused address is 400 on `email`,
 * anything else 503. Answers the Booking with the note.
 */
export function resendItinerary(
  deps: TableHandle & { readonly clock: Clock; readonly notices: NoticeSender },
) {
  return async (body: z.output<ReturnType<typeof resendRequest>>, session: Session): Promise<BookingView> => {
    const to = (record: BookingRecord) => body.email ?? record.contact.email;
    const { record, note, index } = await appendNote(
      deps,
      {
        bookingId: body.booking_id,
        agencyId: session.agencyId,
        by: { id: session.agentId, name: session.agentName },
        text: (current) => `Itinerary sent again to ${to(current)}.`,
      },
      { check: checkResendLimit, resend: true },
    );
    const view = await readView(deps, record);
    const itinerary = renderItinerary(travellerView(view), await readAgencyName(deps, session.agencyId));
    const notice = {
      eventId: note.id,
      type: 'booking.itinerary' as const,
      to: to(record),
      bookingId: record.booking_id,
      pnr: record.pnr,
      ...itinerary,
    };
    try {
      await deps.notices.send(notice);
    } catch (error) {
      await takeBack(deps, record, { index, noteId: note.id });
      if (error instanceof NoticeRefusedError)
        throw new ValidationError([
          { path: 'email', message: 'is an address the e-mail service will not send to' },
        ]);
      throw new ServiceUnavailableError(5);
    }
    return view;
  };
}
