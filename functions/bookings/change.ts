import { changeBooking, changeBookingRequest } from '#shared/bookings/change.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const change = changeBooking(ctx);
  return httpHandler(
    route('booking-change'),
    changeBookingRequest,
    async ({ body, session, headers }) =>
      idempotentReply(200, await change({ body, session, idempotencyKey: idempotencyKeyOf(headers) })),
    ctx,
  );
}

export const handler = createHandler(context);
