import { createBooking } from '#shared/bookings/create.ts';
import { CreateBookingRequest } from '#shared/bookings/request.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';
import { type SupplierContext, supplierContext } from '#shared/supply/process-context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: SupplierContext) {
  const book = createBooking(ctx);
  return httpHandler(
    route('booking-create'),
    CreateBookingRequest,
    async ({ body, session, headers }) => {
      const { booking, replayed } = await book({ body, session, idempotencyKey: idempotencyKeyOf(headers) });
      const status = booking.status === 'PENDING' ? 202 : 201;
      return { status, data: booking, ...(replayed && { headers: { 'Idempotent-Replayed': 'true' } }) };
    },
    ctx,
  );
}

export const handler = createHandler(supplierContext);
