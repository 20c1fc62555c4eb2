import { context } from '#shared/context.ts';
import { CURRENCY } from '#shared/flights/fares.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';
import { type SearchContext, searchingSupplier } from '#shared/supply/context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: SearchContext) {
  return httpHandler(
    route('search'),
    () => createSearchRequest(ctx.clock),
    async ({ body, session }) => {
      const flights = await ctx.supplier.search(body, session);
      const currency = flights[0]?.currency ?? CURRENCY;
      return { status: 200, data: flights, meta: { count: flights.length, currency } };
    },
    ctx,
  );
}

export const handler = createHandler({ ...context, supplier: await searchingSupplier(context) });
