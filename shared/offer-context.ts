import { offering } from '#supplier/offers';
import type { AppContext } from './context.ts';
import type { SupplierConfig } from './supply/supplier-config.ts';
import type { Offering } from './supply/wiring/parts.ts';

/**
 * Create's context: the stage's offers paired with booking's flow for their kind, as the stage's one
 * supplier wiring gives them (`#supplier/*`: shared/supply/wiring/, chosen once per bundle); apart from
 * order-context.ts so that no other function carries create's writes.
 */

export type OfferContext = AppContext & Offering;

/** Create's context: the stage's offers and the flow that books them. */
export async function offerContext(ctx: AppContext, config?: SupplierConfig): Promise<OfferContext> {
  return { ...ctx, ...(await offering(ctx, config)) };
}
