import { createBooking } from '#shared/bookings/create.ts';
import { CreateBookingRequest } from '#shared/bookings/request.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { idempotencyKeyOf } from '#shared/http/idempotency-key.ts';
import { route } from '#shared/routes.ts';

const book = createBooking(context);

export const handler = httpHandler(
  route('booking-create'),
  CreateBookingRequest,
  async ({ body, session, headers }) => {
    const { booking, replayed } = await book({ body, session, idempotencyKey: idempotencyKeyOf(headers) });
    return { status: 201, data: booking, ...(replayed && { headers: { 'Idempotent-Replayed': 'true' } }) };
  },
  context,
);
