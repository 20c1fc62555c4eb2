import { ConfirmBookingRequest, confirmBooking } from '#shared/bookings/confirm.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';
import { type SupplierContext, supplierContext } from '#shared/supply/process-context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: SupplierContext) {
  const confirm = confirmBooking(ctx);
  return httpHandler(
    route('booking-confirm'),
    ConfirmBookingRequest,
    async ({ body, session, headers }) =>
      idempotentReply(200, await confirm({ body, session, idempotencyKey: idempotencyKeyOf(headers) })),
    ctx,
  );
}

export const handler = createHandler(supplierContext);
