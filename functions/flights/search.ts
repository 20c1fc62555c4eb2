import { type AppContext, context } from '#shared/context.ts';
import { CURRENCY } from '#shared/flights/fares.ts';
import { searchFlights } from '#shared/flights/search.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const search = searchFlights(ctx);
  return httpHandler(
    route('search'),
    createSearchRequest(ctx.clock),
    async ({ body, session }) => {
      const flights = await search(body, session);
      return { status: 200, data: flights, meta: { count: flights.length, currency: CURRENCY } };
    },
    ctx,
  );
}

export const handler = createHandler(context);
