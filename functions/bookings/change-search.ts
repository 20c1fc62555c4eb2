import { changeSearchRequest, searchBookingChanges } from '#shared/bookings/change-search.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const search = searchBookingChanges(ctx);
  return httpHandler(
    route('booking-change-search'),
    changeSearchRequest,
    async ({ body, session }) => ({ status: 200, data: await search(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
