import { getBooking, getBookingRequest } from '#shared/bookings/manage.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const find = getBooking(ctx);
  return httpHandler(
    route('booking-get'),
    getBookingRequest,
    async ({ body, session }) => ({ status: 200, data: await find(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
