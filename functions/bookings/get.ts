import { GetBookingRequest, getBooking } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: true, body: GetBookingRequest }, getBooking(context));
