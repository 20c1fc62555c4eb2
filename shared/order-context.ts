import type { AppContext } from './context.ts';
import type { SupplierConfig } from './supply/supplier-config.ts';
import type { Ordering } from './supply/wiring/parts.ts';

/**
 * The contexts of the booking functions after create (confirm, cancel, the refund quote, the sweep):
 * the stage's orders paired with its part of booking's flow for their kind, as the stage's one supplier
 * wiring gives them (`#supplier/*`: shared/supply/wiring/, chosen once per bundle by infra/bundling.ts) —
 * so booking code never asks which supplier it has. Each function pairs only its part of the flow, so
 * that it carries no other route's code.
 */
export {
  cancelling as cancelFlow,
  changing as changeFlow,
  confirming as confirmFlow,
  quoting as quoteFlow,
  sweeping as sweepFlow,
} from '#supplier/orders';

export type OrderContext<F> = AppContext & Ordering<F>;

/**
 * The context of a function after create (confirm, cancel, the refund quote, the sweep): the stage's
 * orders, and `flow`'s part of booking's flow for them.
 *
 * @example export const handler = createHandler(await orderContext(context, cancelFlow));
 */
export async function orderContext<F>(
  ctx: AppContext,
  flow: (ctx: AppContext, config?: SupplierConfig) => Promise<Ordering<F>>,
  config?: SupplierConfig,
): Promise<OrderContext<F>> {
  return { ...ctx, ...(await flow(ctx, config)) };
}
