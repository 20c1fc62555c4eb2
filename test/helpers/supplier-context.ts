import type { ChangeFlow, OfferFlow, OrderFlow } from '#shared/bookings/flow.ts';
import type { AppContext } from '#shared/context.ts';
import type { BookingSupplier, OrdersSupplier, SearchingSupplier } from '#shared/supply/port.ts';
import type { SupplierConfig } from '#shared/supply/supplier-config.ts';
import { offering } from '#supplier/offers';
import { cancelling, changing, confirming, quoting, sweeping } from '#supplier/orders';
import { searching } from '#supplier/search';

/** A context with every part of the supplier, and booking's flows for it: for tests and benchmarks that use them all. */
export interface SupplierContext extends AppContext {
  readonly supplier: SearchingSupplier & BookingSupplier & OrdersSupplier;
  readonly offerFlow: OfferFlow;
  readonly orderFlow: OrderFlow & ChangeFlow;
}

/** `ctx` with every part of the supplier `config` names (the process's configuration by default). */
export async function withSupplier(ctx: AppContext, config?: SupplierConfig): Promise<SupplierContext> {
  // Every function's part at once, as no function has it.
  const [search, offers, confirm, cancel, quote, sweep, change] = await Promise.all([
    searching(ctx, config),
    offering(ctx, config),
    confirming(ctx, config),
    cancelling(ctx, config),
    quoting(ctx, config),
    sweeping(ctx, config),
    changing(ctx, config),
  ]);
  const orderFlow: OrderFlow & ChangeFlow = {
    ...change.orderFlow,
    ...confirm.orderFlow,
    ...cancel.orderFlow,
    ...quote.orderFlow,
    ...sweep.orderFlow,
  };
  // The parts are of one supplier (one configuration), which TypeScript cannot see across calls.
  const supplier = { ...search, ...offers.supplier, ...confirm.supplier } as SupplierContext['supplier'];
  return { ...ctx, supplier, offerFlow: offers.offerFlow, orderFlow };
}
