import { changeSearchRequest, searchBookingChanges } from '#shared/bookings/change-search.ts';
import type { ChangeFlow } from '#shared/bookings/flow.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { changeFlow, type OrderContext, orderContext } from '#shared/order-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrderContext<ChangeFlow>) {
  const search = searchBookingChanges(ctx);
  return httpHandler(
    route('booking-change-search'),
    changeSearchRequest,
    async ({ body, session }) => ({ status: 200, data: await search(body, session) }),
    ctx,
  );
}

export const handler = createHandler(await orderContext(context, changeFlow));
