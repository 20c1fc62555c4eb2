import { context } from '#shared/context.ts';
import { CURRENCY } from '#shared/flights/fares.ts';
import { searchFlights } from '#shared/flights/search.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const search = searchFlights(context);

export const handler = httpHandler(
  route('search'),
  createSearchRequest(context.clock),
  async ({ body, session }) => {
    const flights = await search(body, session);
    return { status: 200, data: flights, meta: { count: flights.length, currency: CURRENCY } };
  },
  context,
);
