import { expireLateHolds } from '#shared/bookings/holds.ts';
import { sweepPendingBookings } from '#shared/bookings/sweep.ts';
import { context } from '#shared/context.ts';
import { type OrdersContext, ordersSupplier } from '#shared/supply/context.ts';

/**
 * The scheduled sweep's handler over `ctx` (every minute deployed, a timer in `npm start`): late holds
 * become EXPIRED and their seats go back on sale (docs/API.md §4.4), and a remote supplier's PENDING
 * bookings are settled by finding their orders, never by ordering again (§4.5), as are its cancellations
 * and payments whose answers were lost, by reading their orders (left-calls.ts). It answers what it
 * did; a failure is thrown for the function's error alarm, and the next run a minute later simply
 * tries again (every step is conditional, so nothing is done twice).
 */
export function createHandler(ctx: OrdersContext) {
  return async () => {
    const expired = await expireLateHolds(ctx);
    const settled = await sweepPendingBookings(ctx);
    // Cancellations and payments whose answers were lost: settled by asking the supplier (logged by it).
    // Remote suppliers only: a network bundle leaves the code out.
    if (process.env.BUNDLED_SUPPLIER !== 'network') {
      const { settleLeftCalls } = await import('#shared/bookings/left-calls.ts');
      await settleLeftCalls(ctx);
    }
    if (expired > 0 || settled.confirmed + settled.held + settled.failed > 0)
      ctx.log.info('sweep', { expired_holds: expired, ...settled });
    return { expired, ...settled };
  };
}

export const handler = createHandler({ ...context, supplier: await ordersSupplier(context) });
