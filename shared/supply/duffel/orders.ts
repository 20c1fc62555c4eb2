import type {} from '@duffel/api';
import type { Order, OrderCancellation } from '@duffel/api/types';
import { minorUnits } from '../../money.ts';
import type { Refund, SuppliedBooking, SupplierOrder } from '../port.ts';
import { DuffelRefusal, type DuffelSend } from './client.ts';

/** Duffel's order as far as a booking cares. */
export function supplierOrder(order: Order): SupplierOrder {
  return {
    orderId: order.id,
    bookingReference: order.booking_reference,
    total: minorUnits(order.total_amount, order.total_currency) ?? 0,
    currency: order.total_currency,
    cancelled: Boolean(order.cancelled_at),
    awaitingPayment: order.payment_status.awaiting_payment,
    ...(order.payment_status.payment_required_by && {
      paymentRequiredBy: order.payment_status.payment_required_by,
    }),
  };
}

export type Fail = (error: unknown, pathOf: (field: string | undefined) => string | undefined) => never;

/** The order as Duffel holds it now (a read: repeated after an unknown outcome). */
export async function readOrder(send: DuffelSend, orderId: string, fail: Fail): Promise<SupplierOrder> {
  try {
    const path = `/air/orders/${encodeURIComponent(orderId)}`;
    return supplierOrder((await send<Order>({ method: 'GET', path, repeatable: true })).data);
  } catch (error) {
    return fail(error, () => undefined);
  }
}

/** Cancel = Duffel's cancellation quote, then its confirmation; an order already cancelled answers its refund. */
export async function cancelOrder(send: DuffelSend, orderId: string, fail: Fail): Promise<Refund> {
  try {
    let quote: OrderCancellation;
    try {
      quote = (
        await send<OrderCancellation>({
          method: 'POST',
          path: '/air/order_cancellations',
          body: { order_id: orderId },
          // A quote commits to nothing: asking twice is harmless.
          repeatable: true,
        })
      ).data;
    } catch (error) {
      if (!(error instanceof DuffelRefusal && error.has('already_cancelled'))) throw error;
      const order = await send<Order>({ method: 'GET', path: `/air/orders/${orderId}`, repeatable: true });
      return refundOf(order.data.cancellation ?? undefined, order.data.total_currency);
    }
    const confirmed = await send<OrderCancellation>({
      method: 'POST',
      path: `/air/order_cancellations/${quote.id}/actions/confirm`,
      repeatable: false,
    });
    return refundOf(confirmed.data, quote.refund_currency ?? 'EUR');
  } catch (error) {
    return fail(error, () => undefined);
  }
}

const refundOf = (cancellation: OrderCancellation | undefined, currency: string): Refund => {
  const refundCurrency = cancellation?.refund_currency ?? currency;
  return {
    amount: minorUnits(cancellation?.refund_amount ?? '0', refundCurrency) ?? 0,
    currency: refundCurrency,
  };
};

/**
 * The order Duffel holds for `booking`, found by the booking id in its metadata: first among the orders
 * of its first passenger's family name (Duffel filters orders by passenger name), then — so that a name
 * Duffel spells differently cannot make a made order look absent — among the most recent orders of the
 * account. A few pages each at most; undefined only when neither holds it.
 */
export async function findOrder(
  send: DuffelSend,
  booking: SuppliedBooking,
  fail: Fail,
): Promise<SupplierOrder | undefined> {
  const name = booking.passengers[0]?.last_name ?? '';
  try {
    const filters: Record<string, string>[] = [{ 'passenger_name[]': name }, {}];
    for (const filter of filters) {
      let after: string | null | undefined;
      for (let page = 0; page < 5; page++) {
        const query = new URLSearchParams({ ...filter, limit: '50', ...(after && { after }) });
        const answer = await send<Order[]>({ method: 'GET', path: `/air/orders?${query}`, repeatable: true });
        const found = answer.data.find((order) => order.metadata?.booking_id === booking.booking_id);
        if (found) return supplierOrder(found);
        after = answer.meta?.after;
        if (!after) break;
      }
    }
    return undefined;
  } catch (error) {
    return fail(error, () => undefined);
  }
}
