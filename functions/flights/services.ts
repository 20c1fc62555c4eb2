import { offerServices, offerServicesRequest } from '#shared/bookings/offer-services.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { type OfferContext, offerContext } from '#shared/offer-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OfferContext) {
  const services = offerServices(ctx);
  return httpHandler(
    route('offer-services'),
    offerServicesRequest,
    async ({ body, session }) => ({ status: 200, data: await services(body, session) }),
    ctx,
  );
}

export const handler = createHandler(await offerContext(context));
