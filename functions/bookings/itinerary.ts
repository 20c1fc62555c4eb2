import { type AppContext, context } from '#shared/context.ts';
import { bookingItinerary, itineraryRequest } from '#shared/events/itinerary.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const itinerary = bookingItinerary(ctx);
  return httpHandler(
    route('booking-itinerary'),
    itineraryRequest,
    async ({ body, session }) => ({ status: 200, data: await itinerary(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
