import type { CancelFlow, ConfirmFlow, QuoteFlow, SweepFlow } from './bookings/flow.ts';
import {
  inTableCancelling,
  inTableConfirming,
  inTableLapsing,
  inTableQuoting,
  inTableSweeping,
} from './bookings/in-table-flow.ts';
import type { AppContext } from './context.ts';
import { ordersSupplier } from './supply/context.ts';
import type { OrdersSupplier } from './supply/port.ts';
import type { SupplierConfig } from './supply/supplier-config.ts';

/**
 * The contexts of the booking functions after create (confirm, cancel, the refund quote, the sweep):
 * the stage's supplier part (supply/context.ts), paired here with booking's flow for its kind
 * (bookings/flow.ts) — with offer-context.ts for create, the one place that asks which supplier it is,
 * so booking code never does. `process.env.BUNDLED_SUPPLIER` is a
 * constant in a stage's bundle (infra/bundling.ts), so the other kind's flow sits in a constant-false
 * branch that esbuild drops: a network stage's functions carry no remote flow (imported dynamically,
 * dropped with its branch, as supply/context.ts drops the Duffel adapter). Each function pairs only its
 * part of the flow, so that it carries no other route's code.
 */

export type OrderContext<F> = AppContext & { readonly supplier: OrdersSupplier; readonly orderFlow: F };

const unpaired = (supplier: { name: string }) =>
  new Error(`this bundle has no booking flow for the supplier ${supplier.name}`);

/** Confirm's flow for `supplier`'s orders. */
export async function confirmFlow(supplier: OrdersSupplier): Promise<ConfirmFlow> {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    const { remoteConfirming } = await import('./bookings/remote-confirm.ts');
    const { remoteLapsing } = await import('./bookings/remote-hold.ts');
    return { ...remoteConfirming(supplier.orders), ...remoteLapsing(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableConfirming, ...inTableLapsing };
  }
  throw unpaired(supplier);
}

/** Cancel's flow for `supplier`'s orders. */
export async function cancelFlow(supplier: OrdersSupplier): Promise<CancelFlow> {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    const { remoteCancelling } = await import('./bookings/remote-cancel.ts');
    const { remoteLapsing } = await import('./bookings/remote-hold.ts');
    return { ...remoteCancelling(supplier.orders), ...remoteLapsing(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableCancelling, ...inTableLapsing };
  }
  throw unpaired(supplier);
}

/** The refund quote's flow for `supplier`'s orders. */
export async function quoteFlow(supplier: OrdersSupplier): Promise<QuoteFlow> {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    const { remoteQuoting } = await import('./bookings/refund-quote.ts');
    return remoteQuoting(supplier.orders);
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') return inTableQuoting;
  throw unpaired(supplier);
}

/** The sweep's flow for `supplier`'s orders. */
export async function sweepFlow(supplier: OrdersSupplier): Promise<SweepFlow> {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    const { remoteLapsing } = await import('./bookings/remote-hold.ts');
    const { remoteSweeping } = await import('./bookings/sweep.ts');
    return { ...remoteLapsing(supplier.orders), ...remoteSweeping(supplier.orders) };
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network') {
    return { ...inTableLapsing, ...inTableSweeping };
  }
  throw unpaired(supplier);
}

/**
 * The context of a function after create (confirm, cancel, the refund quote, the sweep): the stage's
 * orders, and `flow`'s part of booking's flow for them.
 *
 * @example export const handler = createHandler(await orderContext(context, cancelFlow));
 */
export async function orderContext<F>(
  ctx: AppContext,
  flow: (supplier: OrdersSupplier) => Promise<F>,
  config?: SupplierConfig,
): Promise<OrderContext<F>> {
  const supplier = await ordersSupplier(ctx, config);
  return { ...ctx, supplier, orderFlow: await flow(supplier) };
}
