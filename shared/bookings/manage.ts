import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { decodeCursor, encodeCursor, pageFields } from '../cursor.ts';
import { cancellationCodes } from '../db/client.ts';
import { NotCancellableError, NotFoundError } from '../errors.ts';
import { returnSeatsUpdate } from '../flights/inventory-item.ts';
import '../zod-locale.ts';
import { type BookingDeps, bookingView } from './booking.ts';
import {
  type BookingView,
  cancelBookingUpdate,
  findBooking,
  listAgencyBookings,
  listPositionOf,
  readListPosition,
} from './booking-item.ts';
import { BOOKING_ID_PATTERN } from './ids.ts';
import { findBookingIdByPnr } from './pnr-item.ts';

const BookingId = z
  .string()
  .check(z.regex(new RegExp(`^${BOOKING_ID_PATTERN}$`), 'must be a booking id (bkg_…)'));
/** Exactly as issued: six capitals, no other spelling (docs/API.md §1). */
const Pnr = z.string().check(z.regex(/^[A-Z]{6}$/, 'must be 6 upper-case letters, as issued'));

export const GetBookingRequest = z.object({ booking_id: z.optional(BookingId), pnr: z.optional(Pnr) }).check(
  z.meta({
    description: 'Exactly one of booking_id or pnr',
    oneOf: [{ required: ['booking_id'] }, { required: ['pnr'] }],
  }),
  z.refine((body) => (body.booking_id === undefined) !== (body.pnr === undefined), {
    path: ['booking_id'],
    message: 'give exactly one of booking_id or pnr',
  }),
);

export const ListBookingsRequest = z.object(pageFields(20));

export const CancelBookingRequest = z.object({ booking_id: BookingId });

const notFound = () => new NotFoundError('No such booking in your agency.');

/** `POST /api/flights/booking/get`: by booking id or PNR, within the caller's agency. */
export function getBooking(deps: BookingDeps) {
  return async (body: z.output<typeof GetBookingRequest>, { agencyId }: Session): Promise<BookingView> => {
    const bookingId = body.booking_id ?? (body.pnr && (await findBookingIdByPnr(deps, body.pnr)));
    const record = bookingId ? await findBooking(deps, bookingId, agencyId) : undefined;
    if (!record) throw notFound();
    return bookingView(record);
  };
}

/** One page of the agency's bookings; `nextCursor` is null exactly when none follows. */
export interface BookingPage {
  readonly bookings: BookingView[];
  readonly nextCursor: string | null;
}

/** `POST /api/flights/booking/list`: the agency's bookings, newest first, a page at a time. */
export function listBookings(deps: BookingDeps) {
  return async (body: z.output<typeof ListBookingsRequest>, { agencyId }: Session): Promise<BookingPage> => {
    const after = body.cursor ? decodeCursor(body.cursor, readListPosition) : undefined;
    const page = await listAgencyBookings(deps, agencyId, { limit: body.limit, after });
    const last = page.bookings.at(-1);
    return {
      bookings: page.bookings.map(bookingView),
      nextCursor: page.more && last ? encodeCursor(listPositionOf(last)) : null,
    };
  };
}

/**
 * `POST /api/flights/booking/cancel`: CONFIRMED → CANCELLED and the seats back on sale, in one
 * transaction. Cancelling again answers the cancelled booking; after the first departure, 409.
 */
export function cancelBooking(deps: BookingDeps) {
  return async (body: z.output<typeof CancelBookingRequest>, session: Session): Promise<BookingView> => {
    const { agencyId } = session;
    const record = await findBooking(deps, body.booking_id, agencyId);
    if (!record) throw notFound();
    if (record.status === 'CANCELLED') return bookingView(record);
    const now = deps.clock.now();
    if (now >= record.departs_at) throw new NotCancellableError();

    const cancelled = { at: isoSeconds(now), by: { id: session.agentId, name: session.agentName } };
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: cancelBookingUpdate(deps.tableName, record.booking_id, cancelled) },
            // The seats go back on sale on every segment they were taken on.
            ...record.segments.map((segment) => ({
              Update: returnSeatsUpdate(
                deps.tableName,
                { flightNumber: segment.flight_number, date: segment.date },
                record.travel_class,
                record.seats,
              ),
            })),
          ],
        }),
      );
    } catch (error) {
      if (!cancellationCodes(error)) throw error;
      // Lost a race with another cancel: answer the booking as it now is.
      const current = await findBooking(deps, record.booking_id, agencyId);
      if (current?.status === 'CANCELLED') return bookingView(current);
      throw error;
    }
    return bookingView({
      ...record,
      status: 'CANCELLED',
      version: (record.version ?? 1) + 1,
      updated_at: cancelled.at,
      cancelled_at: cancelled.at,
      cancelled_by: cancelled.by,
    });
  };
}
