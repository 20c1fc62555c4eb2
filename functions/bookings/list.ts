import { ListBookingsRequest, listBookings } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const list = listBookings(context);

export const handler = httpHandler(
  route('booking-list'),
  ListBookingsRequest,
  async ({ body, session }) => {
    const page = await list(body, session);
    return { status: 200, data: page.bookings, meta: { next_cursor: page.nextCursor } };
  },
  context,
);
