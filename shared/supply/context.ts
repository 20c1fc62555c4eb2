import type { AppContext } from '../context.ts';
import { networkSupplier } from './network.ts';
import type { FlightSupplier } from './port.ts';

/** The context of the functions that call the supplier: search, booking create and cancel. */
export interface SupplierContext extends AppContext {
  readonly supplier: FlightSupplier;
}

/** `ctx` with the stage's supplier, built once per cold start. */
export async function withSupplier(ctx: AppContext): Promise<SupplierContext> {
  return { ...ctx, supplier: networkSupplier(ctx) };
}
