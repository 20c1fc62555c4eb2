import { ListBookingsRequest, listBookings } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: true, body: ListBookingsRequest }, listBookings(context));
