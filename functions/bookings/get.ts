import { GetBookingRequest, getBooking } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const find = getBooking(context);

export const handler = httpHandler(
  route('booking-get'),
  GetBookingRequest,
  async ({ body, session }) => ({ status: 200, data: await find(body, session) }),
  context,
);
