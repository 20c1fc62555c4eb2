import type { CancelFlow, ConfirmFlow, OfferFlow, QuoteFlow, SweepFlow } from './bookings/flow.ts';
import {
  inTableCancelling,
  inTableConfirming,
  inTableLapsing,
  inTableOfferFlow,
  inTableQuoting,
  inTableSweeping,
} from './bookings/in-table-flow.ts';
import {
  remoteCancelling,
  remoteConfirming,
  remoteLapsing,
  remoteQuoting,
  remoteSweeping,
} from './bookings/remote-flow.ts';
import { remoteOfferFlow } from './bookings/remote-offer-flow.ts';
import type { AppContext } from './context.ts';
import { bookingSupplier, ordersSupplier } from './supply/context.ts';
import type { BookingSupplier, OrdersSupplier } from './supply/port.ts';
import type { SupplierConfig } from './supply/supplier-config.ts';

/**
 * The contexts of the booking functions that call the supplier: the stage's supplier part
 * (supply/context.ts), paired here with booking's flow for its kind (bookings/flow.ts) — the one place
 * that asks which supplier it is, so booking code never does. `process.env.BUNDLED_SUPPLIER` is a
 * constant in a stage's bundle (infra/bundling.ts), so the other kind's flow sits in a constant-false
 * branch that esbuild drops with everything only it uses: a network stage's functions carry no remote
 * flow. Each function pairs only its part of the flow, so that it carries no other route's code.
 */

export type OfferContext = AppContext & { readonly supplier: BookingSupplier; readonly offerFlow: OfferFlow };
export type OrderContext<F> = AppContext & { readonly supplier: OrdersSupplier; readonly orderFlow: F };

const unpaired = (supplier: { name: string }) =>
  new Error(`this bundle has no booking flow for the supplier ${supplier.name}`);

/** Create's flow for `supplier`'s offers. */
export function offerFlow(supplier: BookingSupplier): OfferFlow {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel')
    return remoteOfferFlow(supplier);
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network')
    return inTableOfferFlow(supplier);
  throw unpaired(supplier);
}

/** Confirm's flow for `supplier`'s orders. */
export function confirmFlow(supplier: OrdersSupplier): ConfirmFlow {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    return { ...remoteConfirming(supplier.orders), ...remoteLapsing(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableConfirming, ...inTableLapsing };
  }
  throw unpaired(supplier);
}

/** Cancel's flow for `supplier`'s orders. */
export function cancelFlow(supplier: OrdersSupplier): CancelFlow {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    return { ...remoteCancelling(supplier.orders), ...remoteLapsing(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableCancelling, ...inTableLapsing };
  }
  throw unpaired(supplier);
}

/** The refund quote's flow for `supplier`'s orders. */
export function quoteFlow(supplier: OrdersSupplier): QuoteFlow {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel')
    return remoteQuoting(supplier.orders);
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') return inTableQuoting;
  throw unpaired(supplier);
}

/** The sweep's flow for `supplier`'s orders. */
export function sweepFlow(supplier: OrdersSupplier): SweepFlow {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    return { ...remoteLapsing(supplier.orders), ...remoteSweeping(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableLapsing, ...inTableSweeping };
  }
  throw unpaired(supplier);
}

/** Create's context: the stage's offers and the flow that books them. */
export async function offerContext(ctx: AppContext, config?: SupplierConfig): Promise<OfferContext> {
  const supplier = await bookingSupplier(ctx, config);
  return { ...ctx, supplier, offerFlow: offerFlow(supplier) };
}

/**
 * The context of a function after create (confirm, cancel, the refund quote, the sweep): the stage's
 * orders, and `flow`'s part of booking's flow for them.
 *
 * @example export const handler = createHandler(await orderContext(context, cancelFlow));
 */
export async function orderContext<F>(
  ctx: AppContext,
  flow: (supplier: OrdersSupplier) => F,
  config?: SupplierConfig,
): Promise<OrderContext<F>> {
  const supplier = await ordersSupplier(ctx, config);
  return { ...ctx, supplier, orderFlow: flow(supplier) };
}
