import { CancelBookingRequest, cancelBooking } from '#shared/bookings/manage.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: true, body: CancelBookingRequest }, cancelBooking(context));
