import { type BookingDeps, bookingView, hasLiveCall, refundWhere } from '../../bookings/entity/booking.ts';
import { claimHoldCall, releaseCall } from '../../bookings/entity/booking-calls.ts';
import { cancelWrites, confirmWrites } from '../../bookings/entity/booking-ends.ts';
import {
  type BookingRecord,
  type BookingView,
  changeStamp,
  type RefundWhere,
} from '../../bookings/entity/booking-item.ts';
import type { IdempotencyLock } from '../../bookings/entity/idempotency-item.ts';
import type { LateHoldEnd, OrderFlow } from '../../bookings/flow.ts';
import { isoSeconds } from '../../clock.ts';
import { cancellationCodes } from '../../db/client.ts';
import { transact, unslotted } from '../../db/transaction.ts';
import { minorUnits, toMajor } from '../../money.ts';
import type { Refunded, RemoteOrders, SupplierOrder } from '../port.ts';

/**
 * A remote supplier's hold (docs/API.md §4.4, §4.5): confirm pays the supplier's order (confirm.ts),
 * cancel cancels it. Neither call can join a DynamoDB transaction, so each is made under a claim on the booking
 * (`hold_call`: an id and when it started; booking-calls.ts), taken with one conditional write while the hold is HELD
 * before its deadline and no live claim exists:
 *
 * - one claim at a time: of ten confirms at once one pays, the others wait for its outcome;
 * - the claim, not the clock, decides a confirm racing the deadline: a hold claimed in time is
 *   confirmed once paid, and the expiry leaves a claimed hold alone;
 * - never pay twice: the order is read before paying (already paid: settle CONFIRMED); a payment whose
 *   outcome is unknown leaves `hold_call.started_at` behind, so that a late hold is expired only after
 *   the supplier says the order is unpaid (the sweep asks; settleLateRemoteHold).
 */
type Deps = BookingDeps;

export const sameAmount = (order: SupplierOrder, price: { total_price: number; currency: string }) =>
  price.currency === order.currency && minorUnits(String(price.total_price), order.currency) === order.total;

/**
 * CONFIRMED at the amount paid, off the holds listing, and with an Idempotency-Key its answer, in one
 * transaction conditioned on the booking still being HELD under `call`.
 */
export async function confirmPaid(
  deps: Deps,
  record: BookingRecord,
  paid: SupplierOrder,
  call: { id: string } | { started_at: string },
  /** The Idempotency-Key of the confirm that paid, if any: the view is stored as its answer. */
  lock?: IdempotencyLock,
): Promise<BookingView> {
  const at = isoSeconds(deps.clock.now());
  const { version } = changeStamp(record);
  const { payment_required_by: _deadline, hold_call: _, ...rest } = record;
  const view = bookingView({
    ...rest,
    status: 'CONFIRMED',
    total: paid.total,
    updated_at: at,
    version: version + 1,
  });
  const paying = { at, view, lock, paid: { total: paid.total, call } };
  const writes = confirmWrites(deps.tableName, record, paying);
  return transact(deps.db, () => unslotted(writes), { written: () => view });
}

/**
 * A late remote hold whose supplier call was left (a payment's outcome unknown, or a claim whose
 * request died): the supplier decides. Paid → CONFIRMED here; unpaid → expire, settling that call
 * (`leftCall`: its `started_at`). A live claim is left alone (its request settles it).
 */
async function settleLateRemoteHold(
  deps: Deps,
  orders: RemoteOrders,
  record: BookingRecord,
): Promise<LateHoldEnd> {
  const call = record.hold_call;
  if (!call || hasLiveCall(record, deps.clock.now())) return { expire: false };
  // The supplier not answering leaves the hold for the next sweep, without holding up the others.
  const order = await orders.readOrder(record.supplier?.order_id ?? '').catch(() => undefined);
  if (!order) return { expire: false };
  if (order.awaitingPayment || order.cancelled) return { expire: true, leftCall: call.started_at };
  try {
    await confirmPaid(deps, record, order, { started_at: call.started_at });
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
  }
  return { expire: false };
}

type GivenBack = { refund: { amount: number; currency: string } } & RefundWhere;

/**
 * What a cancelled hold gave back: an unpaid hold refunds nothing, and the cancelled booking says so
 * (docs/API.md §4.3), whatever the supplier states (Duffel: 0.00 for a hold, or nothing), and its
 * money went nowhere (`awaiting_payment`) unless the supplier says where.
 */
function holdGivenBack(record: BookingRecord, stated: Refunded): GivenBack {
  const { refund: refunded } = stated;
  const where = refundWhere(stated);
  return {
    refund:
      refunded && refunded.amount > 0
        ? { amount: toMajor(refunded.amount, refunded.currency), currency: refunded.currency }
        : { amount: 0, currency: record.currency },
    refund_to: where.refund_to ?? 'awaiting_payment',
    airline_credits: where.airline_credits,
  };
}

/**
 * Cancels a remote hold (manage.ts): under a claim, the supplier's order is cancelled (its refund
 * recorded when it quotes one: an unpaid hold has none), then the booking, in one transaction with its
 * removal from the holds listing. 'busy' when another call holds the claim or it is no longer HELD.
 */
export async function cancelRemoteHold(
  deps: Deps,
  orders: RemoteOrders,
  record: BookingRecord,
  cancelled: { at: string; by: { id: string; name: string } },
): Promise<GivenBack | 'busy'> {
  const claim = await claimHoldCall(deps, record.booking_id, deps.clock.now());
  if (!claim) return 'busy';
  try {
    const stated = await orders.cancel(record.supplier?.order_id ?? '', record.currency);
    const given = holdGivenBack(record, stated);
    const held = { ...record, status: 'HELD' as const };
    const writes = cancelWrites(deps.tableName, held, { ...cancelled, ...given }, { holdClaim: claim });
    return await transact(deps.db, () => unslotted(writes), { written: () => given });
  } catch (error) {
    const release = { attribute: 'hold_call', claim, leaveStart: false } as const;
    await releaseCall(deps, record.booking_id, release).catch(() => undefined);
    throw error;
  }
}

/** The end of a late hold: a remote hold with a payment that may have gone through ends as its supplier says. */
export const remoteLapsing = (orders: RemoteOrders): Pick<OrderFlow, 'endLateHold' | 'holdCall'> => ({
  endLateHold: async (deps, record) =>
    record.hold_call ? settleLateRemoteHold(deps, orders, record) : { expire: true },
  holdCall: (record, now) =>
    record.hold_call === undefined ? undefined : hasLiveCall(record, now) ? 'live' : 'left',
});
