import { listBookings, listBookingsRequest } from '#shared/bookings/manage.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const list = listBookings(ctx);
  return httpHandler(
    route('booking-list'),
    listBookingsRequest,
    async ({ body, session }) => {
      const page = await list(body, session);
      // `partial` only on a page the read budget cut short (docs/bookings.md).
      const meta = { next_cursor: page.nextCursor, ...(page.partial && { partial: true }) };
      return { status: 200, data: page.bookings, meta };
    },
    ctx,
  );
}

export const handler = createHandler(context);
