import { setTimeout as sleep } from 'node:timers/promises';
import { type BookingDeps, hasLiveCall, isPastDeadline } from '../../bookings/entity/booking.ts';
import { claimHoldCall, releaseCall } from '../../bookings/entity/booking-calls.ts';
import { type BookingRecord, type BookingView, readBooking } from '../../bookings/entity/booking-item.ts';
import { listCall } from '../../bookings/entity/call-item.ts';
import type { HoldConfirm, OrderFlow } from '../../bookings/flow.ts';
import { isoSeconds } from '../../clock.ts';
import { PriceChangedError, ServiceUnavailableError, SupplierRejectedError } from '../../errors.ts';
import { toMajor } from '../../money.ts';
import type { RemoteOrders, SupplierOrder } from '../port.ts';
import { confirmPaid, sameAmount } from './hold.ts';

/**
 * Confirm of a remote supplier's hold (docs/API.md §4.4): the order is paid under a claim on the hold
 * (hold.ts), once, for exactly its current amount.
 */

/**
 * How long a confirm that finds another one paying waits for its outcome before answering 503: a
 * payment (with its reads and their retries) can take a live supplier well over 3 s, and parallel
 * confirms answer the final state (docs/API.md §4.5); still inside any function's timeout.
 */
const WAIT_MS = 20_000;

/**
 * Confirms a remote hold (confirm.ts): under a claim, reads the order; already paid → CONFIRMED; at
 * another price than sent → 409 PRICE_CHANGED with the supplier's; otherwise one payment of exactly the
 * order's amount, then CONFIRMED. Another call holding the claim is waited for; once the hold is no
 * longer one to confirm, it is handed back `changed` for confirm.ts to answer. Throws the conditioned write's failure when the booking changed under it (confirm.ts
 * answers what it became).
 */
async function confirmRemoteHold(
  deps: BookingDeps,
  orders: RemoteOrders,
  request: HoldConfirm,
): Promise<BookingView | { changed: BookingRecord }> {
  const waitUntil = performance.now() + WAIT_MS;
  let { record } = request;
  // Listed before the claim, so that a payment whose answer is lost (or whose function dies) is found by
  // the sweep within minutes, not at the hold's deadline (left-calls.ts).
  await listCall(deps, { booking_id: record.booking_id, started_at: isoSeconds(deps.clock.now()) });
  for (let pause = 100; ; pause = Math.min(pause * 2, 500)) {
    const claim = await claimHoldCall(deps, record.booking_id, deps.clock.now());
    if (claim) return payUnderClaim(deps, orders, { ...request, record }, claim);
    // Another call holds the hold: waited for while it is a hold to confirm; anything else is confirm's
    // to answer (confirm.ts).
    const current = (await readBooking(deps, record.booking_id)) ?? record;
    if (!toConfirm(current, deps.clock.now())) return { changed: current };
    if (performance.now() > waitUntil) throw new ServiceUnavailableError(2);
    record = current;
    await sleep(pause);
  }
}

/** Whether `record` is still a hold to confirm: HELD, in time or with a live call (which the deadline leaves alone). */
const toConfirm = (record: BookingRecord, now: number) =>
  record.status === 'HELD' && (!isPastDeadline(record, now) || hasLiveCall(record, now));

async function payUnderClaim(
  deps: BookingDeps,
  orders: RemoteOrders,
  request: HoldConfirm,
  claim: string,
): Promise<BookingView> {
  const { record, price } = request;
  const orderId = record.supplier?.order_id ?? '';
  const priceNow = (order: SupplierOrder) =>
    new PriceChangedError({
      previous_total_price: price.total_price,
      total_price: toMajor(order.total, order.currency),
      currency: order.currency,
    });
  let mayBePaid = false;
  try {
    let order = await orders.readOrder(orderId);
    mayBePaid = !order.awaitingPayment;
    if (order.cancelled)
      throw new SupplierRejectedError([{ message: 'The airline cancelled the held order.' }]);
    if (order.awaitingPayment) {
      if (!sameAmount(order, price)) throw priceNow(order);
      mayBePaid = true;
      const paid = await orders.pay(orderId, { amount: order.total, currency: order.currency });
      if (paid.kind === 'refused') mayBePaid = false;
      if (paid.kind === 'refused') throw paid.error;
      order = paid.kind === 'paid' ? { ...order, awaitingPayment: false } : await orders.readOrder(orderId);
      if (order.awaitingPayment)
        throw sameAmount(order, price) ? new ServiceUnavailableError(5) : priceNow(order);
    }
    // Paid before (a request that lost its answer) at another price than this one sent: settle, then say so.
    const answered = sameAmount(order, price);
    const view = await confirmPaid(deps, record, order, { id: claim }, answered ? request.lock : undefined);
    if (answered) return view;
    throw priceNow(order);
  } catch (error) {
    const release = { attribute: 'hold_call', claim, leaveStart: mayBePaid } as const;
    await releaseCall(deps, record.booking_id, release).catch(() => undefined);
    throw error;
  }
}

/** Confirm's part, over the supplier's `orders`. */
export const remoteConfirming = (
  orders: RemoteOrders,
): Pick<OrderFlow, 'confirmHold' | 'checkHeldPrice'> => ({
  // The supplier is paid first, under a claim on the hold (confirm.ts).
  confirmHold: (deps, request) => confirmRemoteHold(deps, orders, request),
  // A remote supplier may have moved a held price: its order's amount is checked under the claim.
  checkHeldPrice: () => undefined,
});
