import { CancelBookingRequest, cancelBooking } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const cancel = cancelBooking(context);

export const handler = httpHandler(
  route('booking-cancel'),
  CancelBookingRequest,
  async ({ body, session }) => ({ status: 200, data: await cancel(body, session) }),
  context,
);
