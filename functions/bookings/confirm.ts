import { confirmBooking, confirmBookingRequest } from '#shared/bookings/confirm.ts';
import type { ConfirmFlow } from '#shared/bookings/flow.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { confirmFlow, type OrderContext, orderContext } from '#shared/order-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrderContext<ConfirmFlow>) {
  const confirm = confirmBooking(ctx);
  return httpHandler(
    route('booking-confirm'),
    confirmBookingRequest,
    async ({ body, session, headers }) =>
      idempotentReply(200, await confirm({ body, session, idempotencyKey: idempotencyKeyOf(headers) })),
    ctx,
  );
}

export const handler = createHandler(await orderContext(context, confirmFlow));
