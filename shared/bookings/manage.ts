import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import { decodeCursor, encodeCursor, pageFields } from '../cursor.ts';
import { cancellationCodes, isConditionFailed, type TableHandle } from '../db/client.ts';
import { NotCancellableError, NotFoundError, ServiceUnavailableError } from '../errors.ts';
import { toMajor } from '../money.ts';
import type { CancellingSupplier } from '../supply/port.ts';
import '../zod-locale.ts';
import { listAgencyBookings } from './agency-listing.ts';
import { type BookingDeps, bookingView, isLateHold, isPastDeadline } from './booking.ts';
import {
  BOOKING_STATUSES,
  type BookingRecord,
  type BookingView,
  changeStamp,
  findBooking,
  listPositionOf,
  readListPosition,
} from './booking-item.ts';
import { cancelBookingUpdate } from './booking-updates.ts';
import { heldRemoval } from './held-item.ts';
import { expireHold } from './holds.ts';
import { BookingId } from './ids.ts';
import { findBookingIdByPnr } from './pnr-item.ts';

/**
 * As issued, in any letter case (docs/API.md §4.3: agents read PNRs over the phone), looked up
 * upper-cased: six letters from the built-in network, an airline's record locator (5-8 letters and
 * digits) from a supplier. Still one exact lookup; nothing else (spaces, other characters) is another
 * spelling of a PNR.
 */
const Pnr = z.string().check(
  z.regex(/^[A-Za-z0-9]{5,8}$/, 'must be the booking reference as issued (any letter case)'),
  z.overwrite((pnr) => pnr.toUpperCase()),
  z.meta({ description: 'The booking’s PNR in any letter case (`qxbtrv` finds `QXBTRV`)' }),
);

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

export const ListBookingsRequest = z.object({
  ...pageFields(20),
  status: z.optional(
    z.array(z.enum(BOOKING_STATUSES)).check(
      z.minLength(1, 'must list 1-6 statuses'),
      z.maxLength(BOOKING_STATUSES.length, 'must list 1-6 statuses'),
      z.refine((statuses) => new Set(statuses).size === statuses.length, 'must not list a status twice'),
      z.meta({
        description:
          'Only bookings in one of these statuses, as answered now (a hold past its deadline is EXPIRED). A cursor is bound to the filter it was returned with',
        uniqueItems: true,
      }),
    ),
  ),
});

/** The filter a cursor is bound to: the statuses in a fixed order, so their order in a request does not matter. */
const statusFilter = (statuses: readonly string[] | undefined) =>
  statuses && `status=${BOOKING_STATUSES.filter((status) => statuses.includes(status)).join(',')}`;

export const CancelBookingRequest = z.object({ booking_id: BookingId });

const notFound = () => new NotFoundError('No such booking in your agency.');

/** `POST /api/flights/booking/get`: by booking id or PNR, within the caller's agency. */
export function getBooking(deps: TableHandle & { readonly clock: Clock }) {
  return async (body: z.output<typeof GetBookingRequest>, { agencyId }: Session): Promise<BookingView> => {
    const bookingId = body.booking_id ?? (body.pnr && (await findBookingIdByPnr(deps, body.pnr, agencyId)));
    const record = bookingId ? await findBooking(deps, bookingId, agencyId) : undefined;
    if (!record) throw notFound();
    return bookingView(record, deps.clock.now());
  };
}

/** One page of the agency's bookings; `nextCursor` is null exactly when none follows. */
export interface BookingPage {
  readonly bookings: BookingView[];
  readonly nextCursor: string | null;
}

/**
 * `POST /api/flights/booking/list`: the agency's bookings, newest first, a page at a time; with
 * `status`, only those in one of the statuses, the cursor bound to that filter.
 */
export function listBookings(deps: TableHandle & { readonly clock: Clock }) {
  return async (body: z.output<typeof ListBookingsRequest>, { agencyId }: Session): Promise<BookingPage> => {
    const filter = statusFilter(body.status);
    const after = body.cursor ? decodeCursor(body.cursor, readListPosition, filter) : undefined;
    const now = deps.clock.now();
    const page = await listAgencyBookings(deps, agencyId, {
      limit: body.limit,
      after,
      now,
      ...(body.status && { statuses: body.status }),
    });
    return {
      bookings: page.bookings.map((record) => bookingView(record, now)),
      nextCursor: page.next
        ? encodeCursor(
            listPositionOf({ created_at: page.next.createdAt, booking_id: page.next.bookingId }),
            filter,
          )
        : null,
    };
  };
}

/**
 * `POST /api/flights/booking/cancel`: CONFIRMED → CANCELLED, through the supplier (docs/API.md §4.5): the
 * built-in network gives the seats back in the same transaction as the booking's update; a remote
 * supplier confirms its cancellation quote first. The refund is recorded on the booking. Cancelling
 * again answers the cancelled booking; after the first departure, 409.
 */
export function cancelBooking(deps: BookingDeps<CancellingSupplier>) {
  return async (body: z.output<typeof CancelBookingRequest>, session: Session): Promise<BookingView> => {
    const { agencyId } = session;
    const record = await findBooking(deps, body.booking_id, agencyId);
    if (!record) throw notFound();
    const now = deps.clock.now();
    // A hold past its deadline expires rather than cancels (its seats go back either way); cancelling
    // what already ended answers it as it is.
    if (isPastDeadline(record, now) && record.hold_call) {
      // A remote hold whose payment may have gone through ends as its supplier says (remote-hold.ts).
      await expireHold(deps, record, now);
      const current = await findBooking(deps, record.booking_id, agencyId);
      if (current?.status === 'HELD') throw new ServiceUnavailableError(5);
      return cancelBooking(deps)(body, session);
    }
    if (isLateHold(record, now)) await expireHold(deps, record, now);
    if (record.status === 'CANCELLED' || record.status === 'EXPIRED' || isLateHold(record, now))
      return bookingView(record, now);
    const from = record.status;
    if (from !== 'CONFIRMED' && from !== 'HELD') {
      throw new NotCancellableError(`A ${from} booking cannot be cancelled.`);
    }
    if (now >= record.departs_at) throw new NotCancellableError();

    const at = isoSeconds(now);
    const by = { id: session.agentId, name: session.agentName };
    const { cancelling } = deps.supplier;
    try {
      if (cancelling.kind === 'in-table') {
        // The built-in network refunds the full price of a confirmed booking; a hold was never paid.
        const refund =
          record.status === 'CONFIRMED'
            ? { amount: toMajor(record.total, record.currency), currency: record.currency }
            : undefined;
        const update = cancelBookingUpdate(deps.tableName, stamped(record, from), { at, by, refund });
        const held = record.payment_required_by;
        const unlist =
          record.status === 'HELD' && held
            ? [
                {
                  Delete: heldRemoval(deps.tableName, {
                    booking_id: record.booking_id,
                    payment_required_by: held,
                  }),
                },
              ]
            : [];
        await cancelling.cancel(record, [{ Update: update }, ...unlist]);
        return cancelledView(record, { at, by, refund });
      }
      const orderId = record.supplier?.order_id;
      if (!orderId) throw new NotCancellableError('The booking has no supplier order to cancel.');
      if (record.status === 'HELD' && process.env.BUNDLED_SUPPLIER !== 'network') {
        // Cancelled at the supplier under a claim on the hold, so that no confirm pays meanwhile.
        const { cancelRemoteHold } = await import('./remote-hold.ts');
        const done = await cancelRemoteHold(deps, cancelling, record, { at, by });
        if (done !== 'busy')
          return cancelledView(record, { at, by, ...(done.refund && { refund: done.refund }) });
        const current = await findBooking(deps, record.booking_id, agencyId);
        if (current?.status === 'HELD') throw new ServiceUnavailableError(2);
        return cancelBooking(deps)(body, session);
      }
      const refunded = await cancelling.cancel(orderId);
      const refund = { amount: toMajor(refunded.amount, refunded.currency), currency: refunded.currency };
      await deps.db.send(
        new UpdateCommand(cancelBookingUpdate(deps.tableName, stamped(record, from), { at, by, refund })),
      );
      return cancelledView(record, { at, by, refund });
    } catch (error) {
      if (!cancellationCodes(error) && !isConditionFailed(error)) throw error;
      // Lost a race with another cancel (or a hold's confirm or expiry): answer the booking as it now is
      // when it ended; a hold confirmed meanwhile is cancelled as the confirmed booking it became.
      const current = await findBooking(deps, record.booking_id, agencyId);
      if (current?.status === 'CANCELLED' || current?.status === 'EXPIRED') return bookingView(current);
      if (current?.status === 'CONFIRMED' && record.status === 'HELD')
        return cancelBooking(deps)(body, session);
      throw error;
    }
  };
}

const stamped = (record: BookingRecord, status: 'CONFIRMED' | 'HELD') => ({
  booking_id: record.booking_id,
  status,
  ...changeStamp(record),
});

function cancelledView(
  record: BookingRecord,
  cancelled: { at: string; by: { id: string; name: string }; refund?: { amount: number; currency: string } },
): BookingView {
  return bookingView({
    ...record,
    status: 'CANCELLED',
    payment_required_by: undefined,
    cancelled_at: cancelled.at,
    cancelled_by: cancelled.by,
    ...(cancelled.refund && { refund: cancelled.refund }),
    updated_at: cancelled.at,
    version: changeStamp(record).version + 1,
  });
}
