import { NotCancellableError } from '../errors.ts';
import type { RemoteOrders } from '../supply/port.ts';
import { cancelledView } from './booking.ts';
import type { OrderFlow } from './flow.ts';
import { settleLeftCalls } from './left-calls.ts';
import { refundQuoteView } from './refund-quote.ts';
import { cancelRemoteOrder } from './remote-cancel.ts';
import { confirmRemoteHold } from './remote-confirm.ts';
import { cancelRemoteHold, settleLateRemoteHold } from './remote-hold.ts';
import { sweepPendingBookings } from './sweep.ts';

/**
 * Booking with a remote supplier (Duffel, docs/API.md §4.5): every order, payment and cancellation is an
 * outside call that cannot join a DynamoDB transaction, so each is made exactly once under a record in
 * the table — the booking PENDING (remote-order.ts), a claim on it (remote-hold.ts, remote-cancel.ts) —
 * and a lost answer is settled by reading the order, by the next request or the sweep. Create's flow is
 * apart (remote-offer-flow.ts), so that create carries none of this.
 */

const noOrder = () => new NotCancellableError('The booking has no supplier order to cancel.');

/** Confirm's part, over the supplier's `orders`. */
export const remoteConfirming = (
  orders: RemoteOrders,
): Pick<OrderFlow, 'confirmHold' | 'checkHeldPrice'> => ({
  // The supplier is paid first, under a claim on the hold (remote-confirm.ts).
  confirmHold: (deps, request) => confirmRemoteHold(deps, orders, request),
  // A remote supplier may have moved a held price: its order's amount is checked under the claim.
  checkHeldPrice: () => undefined,
});

/** Cancel's part: at the supplier first, under a claim. */
export const remoteCancelling = (orders: RemoteOrders): Pick<OrderFlow, 'cancel' | 'ownRefund'> => ({
  // Its supplier quotes the refund of a CONFIRMED booking: the cancel checks it under the claim.
  ownRefund: () => undefined,
  async cancel(deps, record, { at, by, expected }) {
    if (!record.supplier?.order_id) throw noOrder();
    if (record.status === 'CONFIRMED') {
      // Cancelled at the supplier under a claim on the booking, never twice (remote-cancel.ts).
      return cancelRemoteOrder(deps, orders, record, by, expected);
    }
    // Cancelled at the supplier under a claim on the hold, so that no confirm pays meanwhile.
    const done = await cancelRemoteHold(deps, orders, record, { at, by });
    return done === 'busy' ? done : cancelledView(record, { at, by, refund: done.refund });
  },
});

/** The refund quote's part: the supplier quotes a CONFIRMED booking's refund. */
export const remoteQuoting = (orders: RemoteOrders): Pick<OrderFlow, 'ownRefund' | 'quoteRefund'> => ({
  ownRefund: () => undefined,
  async quoteRefund(record) {
    const orderId = record.supplier?.order_id;
    if (!orderId) throw noOrder();
    const quote = await orders.quoteCancellation(orderId, record.currency);
    // Cancelled at the supplier already (a cancel whose answer was lost): the cancel route settles it.
    if (quote === 'cancelled') throw new NotCancellableError('The booking is being cancelled.');
    return refundQuoteView(record, quote);
  },
});

/** The end of a late hold: a remote hold with a payment that may have gone through ends as its supplier says. */
export const remoteLapsing = (orders: RemoteOrders): Pick<OrderFlow, 'endLateHold'> => ({
  endLateHold: (deps, record, expire) =>
    record.hold_call ? settleLateRemoteHold(deps, orders, record, expire) : expire(),
});

/** The sweep's part: PENDING bookings and lost answers settled by asking the supplier, never again. */
export const remoteSweeping = (
  orders: RemoteOrders,
): Pick<OrderFlow, 'sweepPending' | 'settleLeftCalls'> => ({
  sweepPending: (deps) => sweepPendingBookings(deps, orders),
  settleLeftCalls: (deps) => settleLeftCalls(deps, orders),
});
