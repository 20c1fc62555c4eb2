import type { OfferFlow } from './bookings/flow.ts';
import { inTableOfferFlow } from './bookings/in-table-offer-flow.ts';
import type { AppContext } from './context.ts';
import { bookingSupplier } from './supply/context.ts';
import type { BookingSupplier } from './supply/port.ts';
import type { SupplierConfig } from './supply/supplier-config.ts';

/**
 * Create's context: the stage's offers (supply/context.ts) paired with booking's flow for their kind
 * (bookings/flow.ts), as order-context.ts pairs the functions after create. A network stage's bundle
 * drops the remote flow with its constant-false branch (`process.env.BUNDLED_SUPPLIER`,
 * infra/bundling.ts); apart from order-context.ts so that no other function carries create's writes.
 */

export type OfferContext = AppContext & { readonly supplier: BookingSupplier; readonly offerFlow: OfferFlow };

/** Create's flow for `supplier`'s offers. */
export async function offerFlow(supplier: BookingSupplier): Promise<OfferFlow> {
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier.name === 'duffel') {
    const { remoteOfferFlow } = await import('./bookings/remote-order.ts');
    return remoteOfferFlow(supplier);
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel' && supplier.name === 'network')
    return inTableOfferFlow(supplier);
  throw new Error(`this bundle has no booking flow for the supplier ${supplier.name}`);
}

/** Create's context: the stage's offers and the flow that books them. */
export async function offerContext(ctx: AppContext, config?: SupplierConfig): Promise<OfferContext> {
  const supplier = await bookingSupplier(ctx, config);
  return { ...ctx, supplier, offerFlow: await offerFlow(supplier) };
}
