import { createBooking } from '#shared/bookings/create.ts';
import { createBookingRequest } from '#shared/bookings/request.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { type OfferContext, offerContext } from '#shared/offer-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OfferContext) {
  const book = createBooking(ctx);
  return httpHandler(
    route('booking-create'),
    createBookingRequest,
    async ({ body, session, headers }) => {
      const made = await book({ body, session, idempotencyKey: idempotencyKeyOf(headers) });
      return idempotentReply(made.status, made);
    },
    ctx,
  );
}

export const handler = createHandler(await offerContext(context));
