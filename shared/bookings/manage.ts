import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import { decodeCursor, encodeCursor, pageFields } from '../cursor.ts';
import { cancellationCodes, isConditionFailed, type TableHandle } from '../db/client.ts';
import { NotCancellableError, NotFoundError, ServiceUnavailableError } from '../errors.ts';
import { sameMoney } from '../money.ts';
import '../zod-locale.ts';
import { listAgencyBookings } from './entity/agency-listing.ts';
import { bookingView, isPastDeadline, writerClock } from './entity/booking.ts';
import { shownPending } from './entity/booking-calls.ts';
import {
  BOOKING_STATUSES,
  type BookingRecord,
  type BookingView,
  changeStamp,
  findBooking,
} from './entity/booking-item.ts';
import { BookingId } from './entity/ids.ts';
import { filterBinding, foldText } from './entity/listing-filter.ts';
import { findBookingIdByPnr } from './entity/pnr-item.ts';
import type { CancelFlow, OrderDeps } from './flow.ts';
import { expireHold, readAsSettled } from './holds.ts';
import { listFilterFields, readPosition } from './list-request.ts';
import { ownRefundQuote, type RefundQuoteView, refundChanged } from './refund-quote.ts';
import { currency, money } from './request.ts';

/**
 * As issued, in any letter case (docs/API.md §4.3: agents read PNRs over the phone), looked up
 * upper-cased: six letters from the built-in network, an airline's record locator (5-8 letters and
 * digits) from a supplier. Still one exact lookup; nothing else (spaces, other characters) is another
 * spelling of a PNR.
 */
const pnr = () =>
  z.string().check(
    z.regex(/^[A-Za-z0-9]{5,8}$/, 'must be the booking reference as issued (any letter case)'),
    z.overwrite((pnr) => pnr.toUpperCase()),
    z.meta({ description: 'The booking’s PNR in any letter case (`qxbtrv` finds `QXBTRV`)' }),
  );

/** The request schemas below are built when first used (http/validate.ts), never at import. */
export const getBookingRequest = () =>
  z.object({ booking_id: z.optional(BookingId), pnr: z.optional(pnr()) }).check(
    z.meta({
      description: 'Exactly one of booking_id or pnr',
      oneOf: [{ required: ['booking_id'] }, { required: ['pnr'] }],
    }),
    z.refine((body) => (body.booking_id === undefined) !== (body.pnr === undefined), {
      path: ['booking_id'],
      message: 'give exactly one of booking_id or pnr',
    }),
  );

export const listBookingsRequest = () =>
  z
    .object({
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
      ...listFilterFields(),
    })
    .check(
      z.refine(
        (body) =>
          body.departure_from === undefined ||
          body.departure_to === undefined ||
          body.departure_from <= body.departure_to,
        { path: ['departure_to'], message: 'must be on or after departure_from' },
      ),
    );

type ListBody = z.output<ReturnType<typeof listBookingsRequest>>;

/**
 * The filters a cursor is bound to, in a fixed order: the statuses (their order in a request does not
 * matter), then the turn-5 filters and the sort (listing-filter.ts); undefined for an unfiltered list,
 * whose cursors carry no filter.
 */
function filterOf(body: ListBody, agentId: string) {
  const statuses =
    body.status && `status=${BOOKING_STATUSES.filter((status) => body.status?.includes(status)).join(',')}`;
  const filter = listingFilter(body, agentId);
  const parts = [
    ...(statuses ? [statuses] : []),
    ...filterBinding(filter),
    ...(body.sort === 'deadline' ? ['sort=deadline'] : []),
  ];
  return { filter, binding: parts.length > 0 ? parts.join(';') : undefined };
}

const listingFilter = (body: ListBody, agentId: string) => ({
  q: body.q === undefined ? undefined : foldText(body.q),
  departureFrom: body.departure_from,
  departureTo: body.departure_to,
  agentId: body.created_by === 'me' ? agentId : undefined,
});

export const cancelBookingRequest = () =>
  z.object({
    booking_id: BookingId,
    refund: z.optional(
      z.object({ amount: money(), currency: currency() }).check(
        z.meta({
          description:
            'The refund expected (from booking/refund-quote): the booking is cancelled only if the refund is still exactly this, otherwise 409 REFUND_CHANGED and nothing changes',
        }),
      ),
    ),
  });
const notFound = () => new NotFoundError('No such booking in your agency.');

/** `POST /api/flights/booking/get`: by booking id or PNR, within the caller's agency. */
export function getBooking(deps: TableHandle & { readonly clock: Clock }) {
  return async (
    body: z.output<ReturnType<typeof getBookingRequest>>,
    { agencyId }: Session,
  ): Promise<BookingView> => {
    const bookingId = body.booking_id ?? (body.pnr && (await findBookingIdByPnr(deps, body.pnr, agencyId)));
    const record = bookingId ? await findBooking(deps, bookingId, agencyId) : undefined;
    if (!record) throw notFound();
    return readView(deps, record);
  };
}

/**
 * What a read answers for a stored booking: what is stored, once what the answer would settle is
 * stored first — a late hold's expiry (holds.ts, readAsSettled), a PENDING booking's first showing
 * (booking-calls.ts, shownPending).
 */
export async function readView(deps: TableHandle & { readonly clock: Clock }, record: BookingRecord) {
  if (record.status === 'PENDING') return bookingView(await shownPending(deps, record));
  return bookingView(await readAsSettled(deps, record));
}

/**
 * One page of the agency's bookings; `nextCursor` is null exactly when none follows; `partial` when the
 * read budget cut the page short (docs/bookings.md).
 */
interface BookingPage {
  readonly bookings: BookingView[];
  readonly nextCursor: string | null;
  readonly partial: boolean;
}

/**
 * `POST /api/flights/booking/list`: the agency's bookings, newest first (or holds by deadline), a page
 * at a time; only those that pass every filter given, the cursor bound to them all.
 */
export function listBookings(deps: TableHandle & { readonly clock: Clock }) {
  return async (body: ListBody, { agencyId, agentId }: Session): Promise<BookingPage> => {
    const { filter, binding } = filterOf(body, agentId);
    const after = body.cursor ? decodeCursor(body.cursor, readPosition, binding) : undefined;
    const page = await listAgencyBookings(deps, agencyId, {
      limit: body.limit,
      after,
      now: deps.clock.now(),
      statuses: body.status,
      filter,
      sort: body.sort,
    });
    return {
      bookings: await Promise.all(page.bookings.map((record) => readView(deps, record))),
      nextCursor: page.next ? encodeCursor(page.next, binding) : null,
      partial: page.partial,
    };
  };
}

/**
 * `POST /api/flights/booking/cancel`: CONFIRMED → CANCELLED, through the supplier (docs/API.md §4.5): the
 * built-in network gives the seats back in the same transaction as the booking's update; a remote
 * supplier confirms its cancellation quote first. The refund is recorded on the booking. Cancelling
 * again answers the cancelled booking; after the first departure, 409.
 *
 * One way down: each try reads the booking once, decides, and hands it to the flow's one write. A try
 * that lost (to the expiry, to another call on the hold, to another write) says so, and the next read
 * is both what that loss answers (lostAnswer) and the booking to try again; 503 after RETRIES.
 */
export function cancelBooking(deps: OrderDeps<CancelFlow>) {
  return async (
    body: z.output<ReturnType<typeof cancelBookingRequest>>,
    session: Session,
  ): Promise<BookingView> => {
    let lost: Lost | undefined;
    for (let tries = 0; ; tries++) {
      const record = await findBooking(deps, body.booking_id, session.agencyId);
      if (lost) {
        lostAnswer(deps, lost, record);
        if (tries > RETRIES) throw new ServiceUnavailableError(2);
      }
      if (!record) throw notFound();
      const tried = await cancel(deps, { body, session, record });
      if ('view' in tried) return tried.view;
      lost = tried.lost;
    }
  };
}

/** How often a cancel that keeps losing to other writes reads the booking again before answering 503. */
const RETRIES = 3;

/** What a try of cancel lost to: the booking is read again, and that read answered or tried. */
type Lost =
  | { readonly to: 'expiry'; readonly now: number }
  | { readonly to: 'busy' }
  | {
      readonly to: 'write';
      readonly from: 'CONFIRMED' | 'HELD';
      readonly version: number;
      readonly error: unknown;
    };

interface CancelTry {
  readonly body: z.output<ReturnType<typeof cancelBookingRequest>>;
  readonly session: Session;
  readonly record: BookingRecord;
}

/** One try: `record` as read, answered as it is, refused, or cancelled by the flow's one write. */
async function cancel(
  deps: OrderDeps<CancelFlow>,
  { body, session, record }: CancelTry,
): Promise<{ view: BookingView } | { lost: Lost }> {
  const now = deps.clock.now();
  if (isPastDeadline(record, now)) {
    // A hold past its deadline expires rather than cancels (its seats go back either way), and the
    // answer is what that write, or the one that beat it, stored (read again).
    await expireHold(deps, record);
    return { lost: { to: 'expiry', now } };
  }
  const decided = cancellable(deps, body, record, now);
  if ('view' in decided) return decided;
  const { from, own } = decided;
  // The deadline rule (booking.ts): a hold's cancel is in time by the clock as it writes.
  const at = writerClock(deps.clock);
  const by = { id: session.agentId, name: session.agentName };
  try {
    // In the table with the seats back; with a remote supplier, at the supplier first under a claim.
    const done = await deps.orderFlow.cancel(
      deps,
      { ...record, status: from },
      { own, at, by, expected: body.refund },
    );
    return done === 'busy' ? { lost: { to: 'busy' } } : { view: done };
  } catch (error) {
    if (!cancellationCodes(error) && !isConditionFailed(error)) throw error;
    // Lost a race with another cancel, or a hold's confirm or expiry (or its deadline passed before
    // the write): answer the booking as it is now stored (read again).
    return { lost: { to: 'write', from, version: changeStamp(record).version, error } };
  }
}

/**
 * Whether `record` (in time) is one to cancel, in the contract's order: already ended (answered as it
 * is), not cancellable (409), departed (409), or the refund expected no longer ours (409 REFUND_CHANGED).
 */
function cancellable(
  deps: OrderDeps<CancelFlow>,
  body: z.output<ReturnType<typeof cancelBookingRequest>>,
  record: BookingRecord,
  now: number,
): { view: BookingView } | { from: 'CONFIRMED' | 'HELD'; own: RefundQuoteView | undefined } {
  if (record.status === 'CANCELLED' || record.status === 'EXPIRED') return { view: bookingView(record) };
  const from = record.status;
  if (from !== 'CONFIRMED' && from !== 'HELD') {
    throw new NotCancellableError(`A ${from} booking cannot be cancelled.`);
  }
  if (now >= record.departs_at) throw new NotCancellableError();
  // A refund the caller expects that our own rule no longer gives: nothing is cancelled.
  const own = ownRefundQuote(record, deps.orderFlow);
  if (body.refund && own && (!own.refund || !sameMoney(body.refund, own.refund))) {
    throw refundChanged(body.refund, own);
  }
  return { from, own };
}

/**
 * What the booking read after a lost try answers at once, before it is tried again: a late remote hold
 * whose supplier has not said yet how it ends, 503 (supply/remote/hold.ts); a hold another call holds,
 * 503; a CONFIRMED booking still CONFIRMED after its write lost, that write's failure. A hold confirmed
 * meanwhile is cancelled as the confirmed booking it became.
 */
function lostAnswer(deps: OrderDeps<CancelFlow>, lost: Lost, current: BookingRecord | undefined) {
  if (
    current?.status === 'HELD' &&
    lost.to === 'expiry' &&
    deps.orderFlow.holdCall(current, lost.now) !== undefined
  )
    throw new ServiceUnavailableError(5);
  if (current?.status === 'HELD' && lost.to === 'busy') throw new ServiceUnavailableError(2);
  // Still CONFIRMED at the version read: the write failed for another reason. A new version (its
  // flights changed meanwhile, docs/API.md §4.9) is cancelled as it is now, on the next try.
  if (
    current?.status === 'CONFIRMED' &&
    lost.to === 'write' &&
    lost.from === 'CONFIRMED' &&
    changeStamp(current).version === lost.version
  )
    throw lost.error;
}
