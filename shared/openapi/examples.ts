import { exampleTraveller } from '../bookings/example-traveller.ts';
import { refundChanged } from '../bookings/refund-quote.ts';
import type { ErrorCode } from '../error-codes.ts';
import {
  type ApiError,
  ConditionsChangedError,
  FlightMismatchError,
  FlightNotFoundError,
  ForbiddenError,
  HoldExpiredError,
  HoldNotAvailableError,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  IdentifierTakenError,
  InternalError,
  InvalidCodeError,
  InvalidJsonError,
  LastAdminError,
  LimitReachedError,
  NotCancellableError,
  NotChangeableError,
  NotFoundError,
  NotHeldError,
  OfferExpiredError,
  PayloadTooLargeError,
  PriceChangedError,
  RateLimitedError,
  SeatUnavailableError,
  ServiceUnavailableError,
  SoldOutError,
  SupplierRejectedError,
  THROTTLED_MESSAGE,
  TooManyAttemptsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors.ts';
import { combined, flightView } from '../flights/flight-view.ts';
import { priceItinerary } from '../flights/pricing.ts';
import { flightsOn, legBetween } from '../flights/schedule.ts';

const pax = { adults: 1, children: 0, infants: 0 };

/** BA's first morning flight from `from` to `to` on `date`, unsold, priced for one adult. */
function exampleLeg(from: string, to: string, date: string) {
  const leg = legBetween(from, to);
  const flight = leg && flightsOn(leg, date).find((f) => f.carrier.code === 'BA');
  const priced = flight && priceItinerary([flight], 'ECONOMY', pax, new Map());
  if (!priced) throw new Error(`example flight ${from}-${to} missing from the schedule`);
  return { ...priced, seatsLeft: 9 };
}

const offer = (id: string) => ({
  id,
  expiresAt: Date.UTC(2026, 10, 24, 9, 50) / 1000,
  travelClass: 'ECONOMY' as const,
  passengers: pax,
});

/** A flight as search returns it: BA London to New York on 1 December, one adult. */
export const flight = flightView(
  offer('off_3q8Zk1vYtR9mX2pQe7WcL0aB5nHs4uJd'),
  combined([exampleLeg('LHR', 'JFK', '2026-12-01')], false),
);

/** A round trip: the same outbound, back from New York a week later. */
export const roundTripFlight = flightView(
  offer('off_9Kd2Wq7LmZ4xR1vB8nT3yH6cF0pS5aJe'),
  combined([exampleLeg('LHR', 'JFK', '2026-12-01'), exampleLeg('JFK', 'LHR', '2026-12-08')], false),
);
const { passengers, contact } = exampleTraveller;
export const booking = {
  booking_id: 'bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX',
  pnr: 'QXBTRV',
  status: 'CONFIRMED',
  total_price: flight.total_price,
  currency: flight.currency,
  created_at: '2026-11-24T09:32:05Z',
  updated_at: '2026-11-24T09:32:05Z',
  version: 1,
  created_by: { id: 'agt_5f2c9e1b7a3d4c6e8f0a1b2c', name: 'Ada Agent' },
  flight,
  passengers,
  contact,
};

/** A Duffel booking whose order's outcome is not known yet (answered 202). */
export const pendingBooking = {
  ...booking,
  pnr: null,
  status: 'PENDING',
  total_price: 412.4,
  currency: 'GBP',
  flight: { ...flight, total_price: 412.4, currency: 'GBP', seats_available: null },
  supplier: { name: 'duffel' },
};

/** One error per code, made as the functions make it. */
const exampleErrors: Record<ErrorCode, () => ApiError> = {
  INVALID_JSON: () => new InvalidJsonError('The body is not valid JSON.'),
  VALIDATION_ERROR: () =>
    new ValidationError([{ path: 'passengers.0.born_on', message: 'must be a date (YYYY-MM-DD)' }]),
  UNAUTHORIZED: () => new UnauthorizedError(),
  INVALID_CODE: () => new InvalidCodeError(),
  FORBIDDEN: () => new ForbiddenError(),
  IDENTIFIER_TAKEN: () => new IdentifierTakenError(),
  LAST_ADMIN: () => new LastAdminError(),
  LIMIT_REACHED: () => new LimitReachedError(),
  NOT_FOUND: () => new NotFoundError('No such booking in your agency.'),
  FLIGHT_NOT_FOUND: () => new FlightNotFoundError(),
  METHOD_NOT_ALLOWED: () => {
    throw new Error('405 is answered for other methods and documented on no operation');
  },
  FLIGHT_MISMATCH: () =>
    new FlightMismatchError([
      { path: 'flight_details.total_price', expected: flight.total_price, received: 399 },
    ]),
  PRICE_CHANGED: () =>
    new PriceChangedError({
      previous_total_price: flight.total_price,
      total_price: flight.total_price + 79,
      currency: 'EUR',
      flight: {
        ...flight,
        id: 'off_7Rt2Lm9QxV4cB8nZ1yK6wE3pA0sDf5Gh',
        total_price: flight.total_price + 79,
      },
    }),
  SOLD_OUT: () => new SoldOutError(),
  CONDITIONS_CHANGED: () =>
    new ConditionsChangedError({ flight: { ...flight, id: 'off_2Wq8Ns5Kd1Xz7Lr4Vb9Mc0Pj3Hf6Gt' } }),
  SEAT_UNAVAILABLE: () =>
    new SeatUnavailableError([{ path: 'seats.0.designator', message: 'Seat 12A is no longer available' }]),
  NOT_CANCELLABLE: () => new NotCancellableError(),
  NOT_CHANGEABLE: () => new NotChangeableError('The fare of this journey does not allow changes.'),
  IDEMPOTENCY_IN_PROGRESS: () => new IdempotencyInProgressError(),
  OFFER_EXPIRED: () => new OfferExpiredError(),
  HOLD_NOT_AVAILABLE: () => new HoldNotAvailableError(),
  NOT_HELD: () => new NotHeldError(),
  HOLD_EXPIRED: () => new HoldExpiredError(),
  REFUND_CHANGED: () =>
    refundChanged(
      { amount: 412.4, currency: 'GBP' },
      {
        booking_id: 'bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX',
        refund: { amount: 371.16, currency: 'GBP' },
        penalty: { amount: 41.24, currency: 'GBP' },
        expires_at: '2026-12-01T09:35:00Z',
        refund_to: 'balance',
        airline_credits: [],
      },
    ),
  PAYLOAD_TOO_LARGE: () => new PayloadTooLargeError('The body is over 65536 bytes.'),
  UNSUPPORTED_MEDIA_TYPE: () => new UnsupportedMediaTypeError(),
  IDEMPOTENCY_KEY_REUSED: () => new IdempotencyKeyReusedError(),
  SUPPLIER_REJECTED: () =>
    new SupplierRejectedError([
      { path: 'passengers.0.born_on', message: 'The airline refused the passenger: date of birth' },
    ]),
  // What every route can meet: the stage's throttle. send-otp words its own (operations.ts).
  RATE_LIMITED: () => new RateLimitedError(1, THROTTLED_MESSAGE),
  TOO_MANY_ATTEMPTS: () => new TooManyAttemptsError(),
  INTERNAL_ERROR: () => new InternalError(),
  SERVICE_UNAVAILABLE: () => new ServiceUnavailableError(1),
};

/**
 * One real error per code, from the classes the functions throw: the document's examples, unless an
 * operation words its own (`errorExamples`).
 */
export function errorExample(code: ErrorCode): ApiError {
  return exampleErrors[code]();
}

/** The agent verify-otp and the session route answer in the examples. */
export const signedInAgent = {
  id: 'agt_5f1c9e2a7b3d4e6f8a9b0c1d',
  name: 'Demo Agent',
  agency_id: 'demo-agency',
  identifier: 'agent@example.com',
  role: 'ADMIN',
};
