import { createBooking } from '#shared/bookings/create.ts';
import { CreateBookingRequest } from '#shared/bookings/request.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf, idempotentReply } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';
import { type SupplierContext, supplierContext } from '#shared/supply/process-context.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: SupplierContext) {
  const book = createBooking(ctx);
  return httpHandler(
    route('booking-create'),
    CreateBookingRequest,
    async ({ body, session, headers }) => {
      const outcome = await book({ body, session, idempotencyKey: idempotencyKeyOf(headers) });
      // A booking whose supplier's answer is not known yet is accepted, not created (docs/API.md §4.5).
      return idempotentReply(outcome.booking.status === 'PENDING' ? 202 : 201, outcome);
    },
    ctx,
  );
}

export const handler = createHandler(supplierContext);
