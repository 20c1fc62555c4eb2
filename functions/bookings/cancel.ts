import { CancelBookingRequest, cancelBooking } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';
import { type OrdersContext, ordersSupplier } from '#shared/supply/context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrdersContext) {
  const cancel = cancelBooking(ctx);
  return httpHandler(
    route('booking-cancel'),
    CancelBookingRequest,
    async ({ body, session }) => ({ status: 200, data: await cancel(body, session) }),
    ctx,
  );
}

export const handler = createHandler({ ...context, supplier: await ordersSupplier(context) });
