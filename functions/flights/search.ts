import { context } from '#shared/context.ts';
import { createSearchRequest, searchFlights } from '#shared/flights/search.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  { auth: true, body: createSearchRequest(context.clock) },
  searchFlights(context),
);
