import { type AppContext, context } from '#shared/context.ts';
import { airportSearchRequest } from '#shared/flights/airport-search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';
import { type CatalogContext, catalogSupplier } from '#shared/supply/context.ts';

type LazyCatalogContext = AppContext & { readonly catalog: () => Promise<CatalogContext['supplier']> };
/** The handler over `ctx`; the catalog (every IATA airport for Duffel) is built on the first search. */
export function createHandler(ctx: LazyCatalogContext) {
  let catalog: ReturnType<LazyCatalogContext['catalog']> | undefined; // built on the first search
  return httpHandler(
    route('airports-search'),
    airportSearchRequest,
    async ({ body }) => {
      catalog ??= ctx.catalog();
      const found = (await catalog).findAirports(body.query, body.limit);
      return { status: 200, data: found, meta: { count: found.length } };
    },
    ctx,
  );
}

export const handler = createHandler({ ...context, catalog: () => catalogSupplier(context) });
