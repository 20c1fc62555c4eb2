import * as zod from 'zod/mini';
import { logoutRequest } from '../auth/logout.ts';
import { SendOtpRequest } from '../auth/send-otp.ts';
import { VerifyOtpRequest } from '../auth/verify-otp.ts';
import { confirmBookingRequest } from '../bookings/confirm.ts';
import { exampleTraveller } from '../bookings/example-traveller.ts';
import { getBookingRequest, listBookingsRequest } from '../bookings/manage.ts';
import { createBookingRequest } from '../bookings/request.ts';
import { systemClock } from '../clock.ts';
import type { ErrorCode } from '../error-codes.ts';
import { RateLimitedError } from '../errors.ts';
import { createSearchRequest } from '../flights/search-request.ts';
import type { RouteId } from '../routes.ts';
import { agencyOperations } from './agency-operations.ts';
import { cancelOperations } from './cancel-operations.ts';
import { changeOperations } from './change-operations.ts';
import { consoleOperations } from './console-operations.ts';
import { booking, flight, pendingBooking, roundTripFlight, signedInAgent } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, EmptyData, Flight, SendOtpData, success, VerifyOtpData } from './responses.ts';
import { servicesOperations } from './services-operations.ts';
import { webhookOperations } from './webhook-operations.ts';
import { workspaceOperations } from './workspace-operations.ts';

/** Every route can answer these: malformed or oversized bodies, gateway throttling, failures. */
export const COMMON_ERRORS: ErrorCode[] = [
  'INVALID_JSON',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

export const operations: Record<RouteId, Operation> = {
  ...agencyOperations,
  ...webhookOperations,
  ...cancelOperations,
  ...changeOperations,
  ...consoleOperations,
  ...workspaceOperations,
  ...servicesOperations,
  'send-otp': {
    summary: 'Send a sign-in code',
    description:
      'Sends a 6-digit code by e-mail (SES) or SMS (SNS) to a registered agent. Unknown identifiers get the same answer, after the same time, and nothing is sent. At most 1 send per 30 s per identifier, and 5 per hour to an agent who has signed in before (2 per hour to any other identifier, registered or not). Each agency has an hourly budget of codes; when it is spent the answer is the same 429 RATE_LIMITED, with Retry-After until the next hour.',
    tag: 'Sign-in',
    request: SendOtpRequest,
    requestExample: { identifier: 'agent@example.com', type: 'EMAIL' },
    status: 202,
    response: success(SendOtpData),
    responseExample: { success: true, data: { expires_in: 300, resend_after: 30 } },
    errors: [],
    // The throttle of codes per identifier, not the stage's throttle every route can meet.
    errorExamples: { RATE_LIMITED: new RateLimitedError(18) },
  },
  'verify-otp': {
    summary: 'Exchange the code for a session',
    description:
      'Answers a session token (JWT, 1 hour) and sets it as the __Host-session cookie. With "cookie_only": true (what a browser client should send) the same answer comes without verification_token and token_type: the session lives only in the HttpOnly cookie. A code works once, for 5 minutes; the 5th wrong code voids it (429 TOO_MANY_ATTEMPTS).',
    tag: 'Sign-in',
    request: VerifyOtpRequest,
    requestExample: { identifier: 'agent@example.com', code: '482913' },
    status: 200,
    response: success(VerifyOtpData),
    responseExample: {
      success: true,
      data: {
        verification_token:
          'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhZ2VuY3lfaWQiOiJkZW1vLWFnZW5jeSJ9.c2lnbmF0dXJl',
        token_type: 'Bearer',
        expires_in: 3600,
        expires_at: '2026-11-24T10:30:00Z',
        agent: signedInAgent,
      },
    },
    moreExamples: {
      mainSummary: 'The session token, in the body and the cookie',
      request: {
        cookieOnly: {
          summary: 'A browser: the session in the HttpOnly cookie only',
          value: { identifier: 'agent@example.com', code: '482913', cookie_only: true },
        },
      },
      response: {
        cookieOnly: {
          summary: 'The answer to cookie_only: no token in the body',
          value: {
            success: true,
            data: { expires_in: 3600, expires_at: '2026-11-24T10:30:00Z', agent: signedInAgent },
          },
        },
      },
    },
    errors: ['INVALID_CODE', 'TOO_MANY_ATTEMPTS'],
    setsCookie: true,
  },
  logout: {
    summary: 'Sign out',
    description:
      'Revokes the presented session token until it expires and clears the cookie. No body is needed. With {"everywhere": true}, ends every session of the calling agent (all its tokens, on every device) from the next request on.',
    tag: 'Sign-in',
    request: logoutRequest(),
    requestExample: { everywhere: true },
    status: 200,
    response: success(EmptyData),
    responseExample: { success: true, data: {} },
    errors: ['UNAUTHORIZED'],
    setsCookie: true,
  },
  search: {
    summary: 'Search flights',
    description:
      'Direct flights and one-stop connections (60 minutes to 6 hours) for a local departure date at the origin, priced from live inventory. With return_date, each offer is a round trip: one outbound and one inbound (leaving at least 2 hours after the outbound lands) sold together, priced both ways. With slices instead (2-6 journeys in date order), each offer is a multi-city trip: one itinerary per journey, each leaving at least 2 hours after the previous one lands, the best combinations by sort. Each result is an offer, bound to your agency for 20 minutes.',
    tag: 'Flights',
    request: createSearchRequest(systemClock()),
    requestExample: {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: '2026-12-01',
      adults: 1,
      travel_class: 'ECONOMY',
    },
    status: 200,
    response: success(zod.array(Flight), zod.object({ count: zod.int(), currency: zod.string() })),
    responseExample: { success: true, data: [flight], meta: { count: 1, currency: 'EUR' } },
    moreExamples: {
      request: {
        roundTrip: {
          summary: 'A round trip',
          value: {
            origin: 'LHR',
            destination: 'JFK',
            departure_date: '2026-12-01',
            return_date: '2026-12-08',
          },
        },
        multiCity: {
          summary: 'A multi-city trip: London, New York, Los Angeles, London',
          value: {
            slices: [
              { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-01' },
              { origin: 'JFK', destination: 'LAX', departure_date: '2026-12-04' },
              { origin: 'LAX', destination: 'LHR', departure_date: '2026-12-08' },
            ],
          },
        },
      },
      response: {
        roundTrip: {
          summary: 'A round trip: outbound and inbound in one offer',
          value: { success: true, data: [roundTripFlight], meta: { count: 1, currency: 'EUR' } },
        },
      },
    },
    errors: ['UNAUTHORIZED'],
  },
  'booking-create': {
    summary: 'Book an offer',
    description:
      "Books the offer for the passengers searched, atomically: the seats, the booking, its PNR. Send an Idempotency-Key to retry safely. Selling from an external supplier (Duffel), the offer is re-read first (409 PRICE_CHANGED with a fresh Flight, 409 SOLD_OUT when it is gone). On either supplier, conditions other than search showed (sealed in the offer id) are 409 CONDITIONS_CHANGED with a fresh Flight, after the price: a moved price answers PRICE_CHANGED, the airline's record locator is the PNR, and when the supplier's answer is unknown the booking is answered 202 PENDING and settled to CONFIRMED or FAILED within 5 minutes (read it with booking/get); an Idempotency-Key replay answers its present state, and for a FAILED booking 422 SUPPLIER_REJECTED, never a 2xx.",
    tag: 'Bookings',
    request: createBookingRequest(),
    requestExample: {
      flight_id: flight.id,
      flight_details: flight,
      total_price: flight.total_price,
      currency: 'EUR',
      passengers: exampleTraveller.passengers,
      contact: exampleTraveller.contact,
    },
    status: 201,
    response: success(Booking),
    responseExample: { success: true, data: booking },
    accepted: {
      description:
        "Accepted: the supplier's answer is not known yet; the booking is PENDING (external supplier only)",
      example: { success: true, data: pendingBooking },
    },
    errors: [
      'UNAUTHORIZED',
      'FLIGHT_NOT_FOUND',
      'FLIGHT_MISMATCH',
      'PRICE_CHANGED',
      'CONDITIONS_CHANGED',
      'SOLD_OUT',
      'SEAT_UNAVAILABLE',
      'IDEMPOTENCY_IN_PROGRESS',
      'OFFER_EXPIRED',
      'HOLD_NOT_AVAILABLE',
      'IDEMPOTENCY_KEY_REUSED',
      'SUPPLIER_REJECTED',
    ],
    idempotencyKey: { example: '8b0c6f1e-3f4a-4c8e-9d2b-7a1e5c3d9f60' },
  },
  'booking-confirm': {
    summary: 'Confirm a held booking',
    description:
      'Confirms a HELD booking at its current price, at most once: 409 PRICE_CHANGED with the price to confirm at, 410 HOLD_EXPIRED after payment_required_by (whether or not the expiry is stored yet; in time means before it by the service’s clock when the confirm is written), 409 NOT_HELD for a booking that is not held. A booking already CONFIRMED at the price sent is answered 200, so a retry is safe. Send an Idempotency-Key to replay the first answer exactly.',
    tag: 'Bookings',
    request: confirmBookingRequest(),
    requestExample: {
      booking_id: booking.booking_id,
      total_price: booking.total_price,
      currency: booking.currency,
    },
    status: 200,
    response: success(Booking),
    responseExample: { success: true, data: { ...booking, version: 2, updated_at: '2026-11-24T11:15:02Z' } },
    errors: [
      'UNAUTHORIZED',
      'NOT_FOUND',
      'NOT_HELD',
      'PRICE_CHANGED',
      'HOLD_EXPIRED',
      'IDEMPOTENCY_IN_PROGRESS',
      'IDEMPOTENCY_KEY_REUSED',
      'SUPPLIER_REJECTED',
      'SERVICE_UNAVAILABLE',
    ],
    idempotencyKey: { example: 'c41d7e92-5a0b-4f3e-8c6d-2b9f1a7e0d53' },
  },
  'booking-get': {
    summary: 'Retrieve a booking',
    description: 'By booking_id or by PNR (exactly one). Another agency’s booking is 404.',
    tag: 'Bookings',
    request: getBookingRequest(),
    requestExample: { pnr: 'QXBTRV' },
    status: 200,
    response: success(Booking),
    responseExample: { success: true, data: booking },
    errors: ['UNAUTHORIZED', 'NOT_FOUND'],
  },
  'booking-list': {
    summary: 'List bookings',
    description:
      'Your agency’s bookings, newest first; pass meta.next_cursor back as cursor for the next page. Filters (status, q, departure_from, departure_to, created_by) combine, and sort "deadline" lists the holds soonest deadline first; a cursor is bound to them all. A page reads at most 1,000 items: one cut short by that budget says meta.partial: true, and its next_cursor goes on.',
    tag: 'Bookings',
    request: listBookingsRequest(),
    requestExample: { limit: 20 },
    status: 200,
    response: success(
      zod.array(Booking),
      zod.object({
        next_cursor: zod.nullable(zod.string()),
        partial: zod.optional(
          zod.literal(true).check(
            zod.meta({
              description:
                'Present when the read budget cut this page short: it may hold fewer than limit bookings, and next_cursor goes on',
            }),
          ),
        ),
      }),
    ),
    responseExample: { success: true, data: [booking], meta: { next_cursor: null } },
    errors: ['UNAUTHORIZED'],
  },
};
