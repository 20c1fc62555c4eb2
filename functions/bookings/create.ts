import { createBooking } from '#shared/bookings/create.ts';
import { CreateBookingRequest } from '#shared/bookings/request.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const book = createBooking(ctx);
  return httpHandler(
    route('booking-create'),
    CreateBookingRequest,
    async ({ body, session, headers }) => {
      const { booking, replayed } = await book({ body, session, idempotencyKey: idempotencyKeyOf(headers) });
      return { status: 201, data: booking, ...(replayed && { headers: { 'Idempotent-Replayed': 'true' } }) };
    },
    ctx,
  );
}

export const handler = createHandler(context);
