import { expireLateHolds } from '#shared/bookings/holds.ts';
import { sweepPendingBookings } from '#shared/bookings/sweep.ts';
import { context } from '#shared/context.ts';
import { type CancellingContext, cancellingSupplier } from '#shared/supply/context.ts';

/**
 * The scheduled sweep's handler over `ctx` (every minute deployed, a timer in `npm start`): late holds
 * become EXPIRED and their seats go back on sale (docs/API.md §4.4), and a remote supplier's PENDING
 * bookings are settled by finding their orders, never by ordering again (§4.5). It answers what it
 * did; a failure is thrown for the function's error alarm, and the next run a minute later simply
 * tries again (every step is conditional, so nothing is done twice).
 */
export function createHandler(ctx: CancellingContext) {
  return async () => {
    const expired = await expireLateHolds(ctx);
    const settled = await sweepPendingBookings(ctx);
    if (expired > 0 || settled.confirmed + settled.held + settled.failed > 0)
      ctx.log.info('sweep', { expired_holds: expired, ...settled });
    return { expired, ...settled };
  };
}

export const handler = createHandler({ ...context, supplier: await cancellingSupplier(context) });
