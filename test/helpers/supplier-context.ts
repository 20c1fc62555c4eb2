import type { OfferFlow, OrderFlow } from '#shared/bookings/flow.ts';
import type { AppContext } from '#shared/context.ts';
import { offerFlow } from '#shared/offer-context.ts';
import { cancelFlow, confirmFlow, quoteFlow, sweepFlow } from '#shared/order-context.ts';
import { bookingSupplier, ordersSupplier, searchingSupplier } from '#shared/supply/context.ts';
import type { BookingSupplier, OrdersSupplier, SearchingSupplier } from '#shared/supply/port.ts';
import type { SupplierConfig } from '#shared/supply/supplier-config.ts';

/** A context with every part of the supplier, and booking's flows for it: for tests and benchmarks that use them all. */
export interface SupplierContext extends AppContext {
  readonly supplier: SearchingSupplier & BookingSupplier & OrdersSupplier;
  readonly offerFlow: OfferFlow;
  readonly orderFlow: OrderFlow;
}

/** `ctx` with every part of the supplier `config` names (the process's configuration by default). */
export async function withSupplier(ctx: AppContext, config?: SupplierConfig): Promise<SupplierContext> {
  const [search, offers, orders] = await Promise.all([
    searchingSupplier(ctx, config),
    bookingSupplier(ctx, config),
    ordersSupplier(ctx, config),
  ]);
  // Every function's part of the flow at once, as no function has it.
  const [confirm, cancel, quote, sweep] = await Promise.all([
    confirmFlow(orders),
    cancelFlow(orders),
    quoteFlow(orders),
    sweepFlow(orders),
  ]);
  const orderFlow: OrderFlow = { ...confirm, ...cancel, ...quote, ...sweep };
  // The three parts are of one supplier (one configuration), which TypeScript cannot see across calls.
  const supplier = { ...search, ...offers, ...orders } as SupplierContext['supplier'];
  return { ...ctx, supplier, offerFlow: await offerFlow(offers), orderFlow };
}
