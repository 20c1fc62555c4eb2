import type { SweepFlow } from '#shared/bookings/flow.ts';
import { expireLateHolds } from '#shared/bookings/holds.ts';
import { context } from '#shared/context.ts';
import { withInvocationFields } from '#shared/invocation.ts';
import { type OrderContext, orderContext, sweepFlow } from '#shared/order-context.ts';

/**
 * The scheduled sweep's handler over `ctx` (every minute deployed, a timer in `npm start`): late holds
 * become EXPIRED and their seats go back on sale (docs/API.md §4.4), and a remote supplier's PENDING
 * bookings are settled by finding their orders, never by ordering again (§4.5), as are its cancellations
 * and payments whose answers were lost, by reading their orders (supply/remote/left-calls.ts). It answers what it
 * did; a failure is thrown for the function's error alarm, and the next run a minute later simply
 * tries again (every step is conditional, so nothing is done twice).
 */
export function createHandler(ctx: OrderContext<SweepFlow>) {
  // Its lines, and those of the code it runs, carry the invocation's request id and cold-start flag.
  return withInvocationFields(async () => {
    const expired = await expireLateHolds(ctx);
    const settled = await ctx.orderFlow.sweepPending(ctx);
    // Cancellations and payments whose answers were lost: settled by asking the supplier (logged by it).
    // The built-in network makes no outside calls: its flow has none to settle.
    await ctx.orderFlow.settleLeftCalls(ctx);
    if (expired > 0 || settled.confirmed + settled.held + settled.failed + settled.waiting > 0)
      ctx.log.info('sweep', { expired_holds: expired, ...settled });
    return { expired, ...settled };
  });
}

export const handler = createHandler(await orderContext(context, sweepFlow));
