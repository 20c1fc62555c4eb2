import { createBooking } from '#shared/bookings/create.ts';
import { CreateBookingRequest } from '#shared/bookings/request.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: true, body: CreateBookingRequest }, createBooking(context));
