import { expireLateHolds } from '#shared/bookings/holds.ts';
import { type SupplierContext, supplierContext } from '#shared/supply/process-context.ts';

/**
 * The scheduled sweep's handler over `ctx` (every minute deployed, a timer in `npm start`): late holds
 * become EXPIRED and their seats go back on sale. It answers what it did; a failure is thrown for the
 * function's error alarm, and the next run a minute later simply tries again (every step is idempotent).
 */
export function createHandler(ctx: SupplierContext) {
  return async (): Promise<{ expired: number }> => {
    const expired = await expireLateHolds(ctx);
    if (expired > 0) ctx.log.info('sweep', { expired_holds: expired });
    return { expired };
  };
}

export const handler = createHandler(supplierContext);
