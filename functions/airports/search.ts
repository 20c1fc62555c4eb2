import { context } from '#shared/context.ts';
import { AirportSearchRequest } from '#shared/flights/airport-search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';
import { type CatalogContext, catalogSupplier } from '#shared/supply/context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: CatalogContext) {
  return httpHandler(
    route('airports-search'),
    AirportSearchRequest,
    async ({ body }) => {
      const found = ctx.supplier.findAirports(body.query, body.limit);
      return { status: 200, data: found, meta: { count: found.length } };
    },
    ctx,
  );
}

export const handler = createHandler({ ...context, supplier: await catalogSupplier(context) });
