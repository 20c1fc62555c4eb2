import { cancelBookingRequest } from '../bookings/manage.ts';
import { refundQuoteRequest } from '../bookings/refund-quote.ts';
import { refundUnder } from '../flights/fare-conditions.ts';
import { minorUnits, toMajor } from '../money.ts';
import { booking } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, RefundQuote, success } from './responses.ts';

/** The example booking's refund under its fare's conditions (its bucket allows none: 0). */
const paid = minorUnits(String(booking.total_price), booking.currency) ?? 0;
const refunded = refundUnder(booking.flight.conditions, paid, booking.currency);
const refund = { amount: toMajor(refunded, booking.currency), currency: booking.currency };
const kept = paid - refunded;

/** Cancelling and its refund quote (docs/API.md §4.3). */
export const cancelOperations = {
  'booking-cancel': {
    summary: 'Cancel a booking',
    description:
      'Cancels and returns the seats; the cancelled booking carries its refund (null while the supplier does not know it), `refund_to` and `airline_credits` (built-in network: journey by journey, each journey whose conditions as sold allow a refund its price less its penalty, the others nothing). With `refund` (from booking/refund-quote), it cancels only if the refund is still exactly that: otherwise 409 REFUND_CHANGED with the refund now and a fresh quote, and nothing changes. Cancelling again answers the cancelled booking; after the first departure, 409 NOT_CANCELLABLE. From an external supplier the cancellation is made once, whatever is lost on the way: parallel cancels all answer the cancelled booking, and a 503 means the outcome is being settled by asking the supplier (retry: it is never cancelled twice).',
    tag: 'Bookings',
    request: cancelBookingRequest(),
    requestExample: { booking_id: booking.booking_id, refund },
    status: 200,
    response: success(Booking),
    responseExample: {
      success: true,
      data: {
        ...booking,
        status: 'CANCELLED',
        cancelled_at: '2026-11-24T10:02:41Z',
        cancelled_by: booking.created_by,
        refund,
        refund_to: 'balance',
        airline_credits: [],
        updated_at: '2026-11-24T10:02:41Z',
        version: 2,
      },
    },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'NOT_CANCELLABLE', 'REFUND_CHANGED', 'SERVICE_UNAVAILABLE'],
  },
  'booking-refund-quote': {
    summary: 'Quote the refund of a cancel',
    description:
      'What a cancel now would give back, changing nothing: the built-in network refunds by the fare conditions the booking was sold with journey by journey (each journey whose conditions allow a refund its price less its penalty, the others nothing; `penalty` is what is kept); an external supplier quotes its own refund (asked for, never confirmed here); a HELD booking was never paid and quotes 0 (`refund_to` awaiting_payment). `refund_to` and `airline_credits` say where the money goes, as the supplier states it. A refund the supplier does not know is null (never 0): a cancel sent with any `refund` then is 409 REFUND_CHANGED, one sent without cancels at whatever the supplier gives. Send the quoted refund with booking/cancel to cancel only at it. Not cancellable (departed, or not CONFIRMED or HELD): 409 NOT_CANCELLABLE.',
    tag: 'Bookings',
    request: refundQuoteRequest(),
    requestExample: { booking_id: booking.booking_id },
    status: 200,
    response: success(RefundQuote),
    responseExample: {
      success: true,
      data: {
        booking_id: booking.booking_id,
        refund,
        penalty: kept > 0 ? { amount: toMajor(kept, booking.currency), currency: booking.currency } : null,
        refund_to: 'balance',
        airline_credits: [],
        expires_at: booking.flight.outbound.segments[0]?.departure_at ?? '2026-12-24T08:05:00Z',
      },
    },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'NOT_CANCELLABLE', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, Operation>;
