import { ConfirmBookingRequest, confirmBooking } from '#shared/bookings/confirm.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';
import { type OrdersContext, ordersSupplier } from '#shared/supply/context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrdersContext) {
  const confirm = confirmBooking(ctx);
  return httpHandler(
    route('booking-confirm'),
    ConfirmBookingRequest,
    async ({ body, session, headers }) =>
      idempotentReply(200, await confirm({ body, session, idempotencyKey: idempotencyKeyOf(headers) })),
    ctx,
  );
}

export const handler = createHandler({ ...context, supplier: await ordersSupplier(context) });
