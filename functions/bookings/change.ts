import { changeBooking, changeBookingRequest } from '#shared/bookings/change.ts';
import type { ChangeFlow } from '#shared/bookings/flow.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { changeFlow, type OrderContext, orderContext } from '#shared/order-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrderContext<ChangeFlow>) {
  const change = changeBooking(ctx);
  return httpHandler(
    route('booking-change'),
    changeBookingRequest,
    async ({ body, session, headers }) =>
      idempotentReply(200, await change({ body, session, idempotencyKey: idempotencyKeyOf(headers) })),
    ctx,
  );
}

export const handler = createHandler(await orderContext(context, changeFlow));
