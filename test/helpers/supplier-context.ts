import type { AppContext } from '#shared/context.ts';
import { bookingSupplier, ordersSupplier, searchingSupplier } from '#shared/supply/context.ts';
import type { FlightSupplier } from '#shared/supply/port.ts';
import type { SupplierConfig } from '#shared/supply/supplier-config.ts';

/** A context with every part of the supplier: for tests and benchmarks that use them all. */
export interface SupplierContext extends AppContext {
  readonly supplier: FlightSupplier;
}

/** `ctx` with every part of the supplier `config` names (the process's configuration by default). */
export async function withSupplier(ctx: AppContext, config?: SupplierConfig): Promise<SupplierContext> {
  const [search, offers, orders] = await Promise.all([
    searchingSupplier(ctx, config),
    bookingSupplier(ctx, config),
    ordersSupplier(ctx, config),
  ]);
  return { ...ctx, supplier: { ...search, ...offers, ...orders } };
}
