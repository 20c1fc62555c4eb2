import type { CancelFlow } from '#shared/bookings/flow.ts';
import { cancelBooking, cancelBookingRequest } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { cancelFlow, type OrderContext, orderContext } from '#shared/order-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrderContext<CancelFlow>) {
  const cancel = cancelBooking(ctx);
  return httpHandler(
    route('booking-cancel'),
    cancelBookingRequest,
    async ({ body, session }) => ({ status: 200, data: await cancel(body, session) }),
    ctx,
  );
}

export const handler = createHandler(await orderContext(context, cancelFlow));
