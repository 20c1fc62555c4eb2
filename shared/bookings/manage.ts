import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { decodeCursor, encodeCursor, pageFields } from '../cursor.ts';
import { cancellationCodes } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import { NotCancellableError, NotFoundError } from '../errors.ts';
import { soldAttribute } from '../flights/inventory.ts';
import '../zod-locale.ts';
import type { BookingDeps } from './booking.ts';
import {
  type BookingRecord,
  type BookingView,
  bookingView,
  findBooking,
  findBookingIdByPnr,
} from './booking.ts';

const BookingId = z.string().check(z.regex(/^bkg_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a booking id (bkg_…)'));
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

/** A booking list position: `<created_at>#<booking_id>` of the last booking returned. */
export function bookingPosition(position: string): { createdAt: string; bookingId: string } | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)#(bkg_[0-9A-HJKMNP-TV-Z]{26})$/.exec(position);
  return match?.[1] && match[2] ? { createdAt: match[1], bookingId: match[2] } : undefined;
}

/** One page of the agency's bookings; `nextCursor` is null exactly when none follows. */
export interface BookingPage {
  readonly bookings: BookingView[];
  readonly nextCursor: string | null;
}

/** `POST /api/flights/booking/list`: the agency's bookings, newest first, a page at a time. */
export function listBookings(deps: BookingDeps) {
  return async (body: z.output<typeof ListBookingsRequest>, { agencyId }: Session): Promise<BookingPage> => {
    const after = body.cursor ? decodeCursor(body.cursor, bookingPosition) : undefined;
    const page = await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :agency',
        ExpressionAttributeValues: { ':agency': gsi1.agency(agencyId) },
        ScanIndexForward: false,
        // One more than the page: the cursor is null exactly when nothing follows (docs/API.md §4.3).
        Limit: body.limit + 1,
        ExclusiveStartKey: after && {
          ...keys.booking(after.bookingId),
          gsi1pk: gsi1.agency(agencyId),
          gsi1sk: `${after.createdAt}#${after.bookingId}`,
        },
      }),
    );
    const found = (page.Items ?? []) as (BookingRecord & { gsi1sk: string })[];
    const records = found.slice(0, body.limit);
    const last = records.at(-1);
    // Fewer than asked with a LastEvaluatedKey means DynamoDB stopped at its 1 MB page: more may follow.
    const more = found.length > records.length || page.LastEvaluatedKey !== undefined;
    return {
      bookings: records.map(bookingView),
      nextCursor: more && last ? encodeCursor(last.gsi1sk) : null,
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

    const cancelledAt = isoSeconds(now);
    const cancelledBy = { id: session.agentId, name: session.agentName };
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: cancelTransaction(deps.tableName, record, cancelledAt, cancelledBy),
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
      cancelled_at: cancelledAt,
      cancelled_by: cancelledBy,
    });
  };
}

function cancelTransaction(
  tableName: string,
  record: BookingRecord,
  cancelledAt: string,
  cancelledBy: { id: string; name: string },
) {
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.booking(record.booking_id),
        UpdateExpression: 'SET #status = :cancelled, cancelled_at = :at, cancelled_by = :by',
        ConditionExpression: '#status = :confirmed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':cancelled': 'CANCELLED',
          ':confirmed': 'CONFIRMED',
          ':at': cancelledAt,
          ':by': cancelledBy,
        },
      },
    },
    ...record.segments.map((segment) => ({
      Update: {
        TableName: tableName,
        Key: keys.inventory(segment.flight_number, segment.date),
        // The seats go back below the limits of the nested buckets, cheapest first.
        UpdateExpression: 'SET #sold = #sold - :seats',
        ConditionExpression: '#sold >= :seats',
        ExpressionAttributeNames: { '#sold': soldAttribute(record.travel_class) },
        ExpressionAttributeValues: { ':seats': record.seats },
      },
    })),
  ];
}
