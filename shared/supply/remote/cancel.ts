import { setTimeout as sleep } from 'node:timers/promises';
import { type BookingDeps, bookingView, cancelledView, refundWhere } from '../../bookings/entity/booking.ts';
import { claimCancelCall, releaseCall } from '../../bookings/entity/booking-calls.ts';
import { cancelWrites } from '../../bookings/entity/booking-ends.ts';
import { type BookingRecord, type BookingView, readBooking } from '../../bookings/entity/booking-item.ts';
import { type ListedCall, listCall, unlistCall } from '../../bookings/entity/call-item.ts';
import type { OrderFlow } from '../../bookings/flow.ts';
import { refundChanged, refundQuoteView } from '../../bookings/refund-quote.ts';
import { isoSeconds } from '../../clock.ts';
import { transact, unslotted } from '../../db/transaction.ts';
import { NotCancellableError, ServiceUnavailableError } from '../../errors.ts';
import { minorUnits, toMajor } from '../../money.ts';
import { NOTHING_STATED, type Refund, type Refunded, type RemoteOrders } from '../port.ts';
import { cancelRemoteHold } from './hold.ts';

/**
 * Cancel of a remote supplier's CONFIRMED booking (docs/API.md §4.5, "exactly once across the outside
 * call"). The supplier's cancellation cannot join a DynamoDB transaction, so it is made under a claim on
 * the booking (`cancel_call`: an id, when it started, who asked; booking-calls.ts), taken with one conditional write while
 * the booking is CONFIRMED and no live claim exists, and listed first (call-item.ts) so that the sweep
 * finds it whatever happens next:
 *
 * - one cancellation at a time: of eight cancels at once one asks the supplier, the others wait for
 *   its outcome and answer the same cancelled booking;
 * - never cancel twice: a call left behind (its answer lost, or its function killed) is settled by
 *   reading the order — in the next request before anything else, or by the sweep once its lease has
 *   passed — never by confirming a cancellation again;
 * - a cancelled order's booking never stays CONFIRMED: an unknown outcome leaves `started_at` behind,
 *   and the sweep asks the supplier within its next runs.
 */
type Actor = { id: string; name: string };

/** How long a cancel that finds another one under way waits for its outcome: inside any function's timeout. */
const WAIT_MS = 20_000;

/**
 * The refund given, major units as answered, against the supplier's (minor units); an unknown refund
 * (null) is never the one expected.
 */
const sameRefund = (given: { amount: number; currency: string }, refund: Refund | null) =>
  refund !== null &&
  given.currency === refund.currency &&
  minorUnits(String(given.amount), refund.currency) === refund.amount;

const major = (refund: Refund) => ({
  amount: toMajor(refund.amount, refund.currency),
  currency: refund.currency,
});

/**
 * Cancels `record` (CONFIRMED, with a supplier order) at its supplier and then in the table, answering the
 * cancelled booking; with `expected`, only if the supplier's refund is still exactly that (otherwise
 * 409 REFUND_CHANGED, nothing cancelled). Another cancel under way is waited for.
 */
async function cancelRemoteOrder(
  deps: BookingDeps,
  orders: RemoteOrders,
  record: BookingRecord,
  by: Actor,
  expected?: { amount: number; currency: string },
): Promise<BookingView> {
  const waitUntil = performance.now() + WAIT_MS;
  const listed = { booking_id: record.booking_id, started_at: isoSeconds(deps.clock.now()) };
  await listCall(deps, listed);
  let current = record;
  for (let pause = 100; ; pause = Math.min(pause * 2, 500)) {
    const claim = await claimCancelCall(deps, current.booking_id, listed.started_at, by);
    if (claim) {
      return cancelUnderClaim(deps, orders, { record: current, by, expected, listed, ...claim });
    }
    const now = await readBooking(deps, current.booking_id);
    if (!now) throw new ServiceUnavailableError(1);
    if (now.status !== 'CONFIRMED') return bookingView(now);
    current = now;
    if (performance.now() > waitUntil) throw new ServiceUnavailableError(5);
    await sleep(pause);
  }
}

interface Claimed {
  readonly record: BookingRecord;
  readonly by: Actor;
  readonly expected: { amount: number; currency: string } | undefined;
  readonly listed: ListedCall;
  readonly claim: string;
  readonly left: string | undefined;
}

async function cancelUnderClaim(
  deps: BookingDeps,
  orders: RemoteOrders,
  claimed: Claimed,
): Promise<BookingView> {
  const { record, claim } = claimed;
  const orderId = record.supplier?.order_id ?? '';
  const settle = (refunded: Refunded) =>
    settleCancelled(deps, record, { id: claim }, claimed.by, refunded, claimed.listed);
  // A call left behind may have cancelled the order: the order says, before anything is sent again.
  let mayBeCancelled = claimed.left !== undefined;
  try {
    if (mayBeCancelled) {
      const order = await orders.readOrder(orderId);
      if (order.cancelled) return await settle(order.cancellation ?? NOTHING_STATED);
    }
    const quote = await orders.quoteCancellation(orderId, record.currency);
    if (quote === 'cancelled') {
      mayBeCancelled = true;
      return await settle((await orders.readOrder(orderId)).cancellation ?? NOTHING_STATED);
    }
    if (claimed.expected && !sameRefund(claimed.expected, quote.refund)) {
      throw refundChanged(claimed.expected, refundQuoteView(record, quote));
    }
    mayBeCancelled = true;
    const outcome = await orders.confirmCancellation(quote);
    if (outcome.kind === 'cancelled') return await settle(outcome);
    if (outcome.kind === 'refused') {
      mayBeCancelled = claimed.left !== undefined;
      throw outcome.error;
    }
    // No answer to trust: the order says whether it was cancelled; it is never confirmed again here.
    const order = await orders.readOrder(orderId).catch(() => undefined);
    // The order's cancellation where it states the refund, else the quote that was confirmed.
    if (order?.cancelled) return await settle(order.cancellation?.refund ? order.cancellation : quote);
    throw new ServiceUnavailableError(5);
  } catch (error) {
    await releaseCancel(deps, claimed, mayBeCancelled);
    throw error;
  }
}

/**
 * Ends a claim that did not cancel the booking. `mayBeCancelled`: the supplier may have cancelled the
 * order, so the call's start stays behind (listed) for the next request or the sweep to ask about.
 * Best effort: an unreleased claim lapses by itself.
 */
async function releaseCancel(deps: BookingDeps, claimed: Claimed, mayBeCancelled: boolean) {
  const release = { attribute: 'cancel_call', claim: claimed.claim, leaveStart: mayBeCancelled } as const;
  await releaseCall(deps, claimed.record.booking_id, release)
    .then(() => (mayBeCancelled ? undefined : unlistCall(deps, claimed.listed)))
    .catch(() => undefined);
}

/**
 * CANCELLED with what the supplier gave back (a refund null while it is unknown, never 0; where it went;
 * airline credits), and the call off the listing, in one transaction conditioned on
 * the booking still being CONFIRMED under `call`. A lost race (the sweep settled the same call) answers
 * the booking as it now is.
 */
export async function settleCancelled(
  deps: BookingDeps,
  record: BookingRecord,
  call: { id: string } | { started_at: string },
  by: Actor,
  refunded: Refunded,
  listed: ListedCall,
): Promise<BookingView> {
  const { refund } = refunded;
  const cancelled = {
    at: isoSeconds(deps.clock.now()),
    by,
    refund: refund && major(refund),
    ...refundWhere(refunded),
  };
  const confirmed = { ...record, status: 'CONFIRMED' as const };
  const writes = cancelWrites(deps.tableName, confirmed, cancelled, { orderCall: { call, listed } });
  // A write lost to another is answered by what was stored, when that is the cancel.
  return transact(deps.db, () => unslotted(writes), {
    written: () => cancelledView(record, cancelled),
    cancelled: async (reasons, error) => {
      if (!reasons.any('ConditionalCheckFailed')) throw error;
      const now = await readBooking(deps, record.booking_id);
      if (now?.status === 'CANCELLED') return bookingView(now);
      throw error;
    },
  });
}

/** Cancel's part: at the supplier first, under a claim. */
export const remoteCancelling = (orders: RemoteOrders): Pick<OrderFlow, 'cancel' | 'ownRefund'> => ({
  // Its supplier quotes the refund of a CONFIRMED booking: the cancel checks it under the claim.
  ownRefund: () => undefined,
  async cancel(deps, record, { at, by, expected }) {
    if (!record.supplier?.order_id)
      throw new NotCancellableError('The booking has no supplier order to cancel.');
    if (record.status === 'CONFIRMED') {
      // Cancelled at the supplier under a claim on the booking, never twice (cancel.ts).
      return cancelRemoteOrder(deps, orders, record, by, expected);
    }
    // Cancelled at the supplier under a claim on the hold, so that no confirm pays meanwhile.
    const done = await cancelRemoteHold(deps, orders, record, { at, by });
    return done === 'busy' ? done : cancelledView(record, { at, by, ...done });
  },
});
