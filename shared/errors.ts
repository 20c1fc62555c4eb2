/**
 * The error catalogue: every failure the API reports is one of these classes, with a stable `code`
 * from the contract's table (docs/API.md §2), the status that code answers and a human message. Domain code
 * throws them without knowing about HTTP; the envelope middleware alone turns them into responses, and
 * anything else into a 500 or 503 whose message never leaves the process.
 */

import { ERROR_STATUS, type ErrorCode } from './error-codes.ts';

export interface ErrorDetail {
  /** Absent only where no field can be named (SUPPLIER_REJECTED). */
  path?: string;
  message?: string;
  expected?: unknown;
  received?: unknown;
}

export abstract class ApiError extends Error {
  abstract readonly code: ErrorCode;
  /** The status the contract gives this error's code. */
  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
  /** One entry per problem, or for PRICE_CHANGED an object (docs/API.md §2). */
  readonly details: ErrorDetail[] | Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    message: string,
    options: { details?: ErrorDetail[] | Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/**
 * The base of an error whose code always says the same thing: `class SoldOutError extends
 * fixedError('SOLD_OUT', 'Not enough seats…') {}`.
 */
function fixedError<C extends ErrorCode>(code: C, message: string) {
  return class extends ApiError {
    readonly code: C = code;
    /** @param instead a more precise message for this occurrence */
    constructor(instead?: string) {
      super(instead ?? message);
    }
  };
}

export class InvalidJsonError extends ApiError {
  readonly code = 'INVALID_JSON' as const;
}

export class ValidationError extends ApiError {
  readonly code = 'VALIDATION_ERROR' as const;
  constructor(details: ErrorDetail[]) {
    super('The request body is not valid; see details.', { details });
  }
}

/** The challenge every 401 carries (docs/API.md §2; RFC 6750 §3). */
const BEARER_CHALLENGE = 'Bearer realm="flight-booking"';

export class UnauthorizedError extends ApiError {
  readonly code = 'UNAUTHORIZED' as const;
  /** @param options.tokenPresented a token was sent and refused: the challenge says `invalid_token` */
  constructor(options: { tokenPresented?: boolean } = {}) {
    super('A valid session token is required.', {
      headers: {
        'WWW-Authenticate': options.tokenPresented
          ? `${BEARER_CHALLENGE}, error="invalid_token"`
          : BEARER_CHALLENGE,
      },
    });
  }
}

export class InvalidCodeError extends ApiError {
  readonly code = 'INVALID_CODE' as const;
  constructor() {
    super('The code is wrong, expired or already used.', {
      headers: { 'WWW-Authenticate': BEARER_CHALLENGE },
    });
  }
}

/** Signed in, but the agent's role does not allow the route. */
export class ForbiddenError extends fixedError('FORBIDDEN', 'Your role does not allow this.') {}

/** The e-mail address or phone number already signs in another agent. */
export class IdentifierTakenError extends fixedError(
  'IDENTIFIER_TAKEN',
  'This e-mail address or phone number is already an agent’s sign-in identifier.',
) {}

/** The change would leave the agency without an active ADMIN. */
export class LastAdminError extends fixedError(
  'LAST_ADMIN',
  'The agency would be left without an active ADMIN: make another agent ADMIN first.',
) {}

/** The agency's cap on agents (the operator can raise it) or on webhook endpoints is reached. */
export class LimitReachedError extends fixedError(
  'LIMIT_REACHED',
  'Your agency has reached its limit of agents (deactivated ones count): ask the operator to raise it or release one.',
) {}

export class NotFoundError extends ApiError {
  readonly code = 'NOT_FOUND' as const;
}

export class FlightNotFoundError extends fixedError(
  'FLIGHT_NOT_FOUND',
  'No such flight offer was issued to your agency.',
) {}

export class MethodNotAllowedError extends ApiError {
  readonly code = 'METHOD_NOT_ALLOWED' as const;
  constructor(allow: string) {
    super(`Use ${allow} for this path.`, { headers: { Allow: allow } });
  }
}

export class FlightMismatchError extends ApiError {
  readonly code = 'FLIGHT_MISMATCH' as const;
  constructor(details: ErrorDetail[]) {
    super('The flight details differ from what search quoted; see details.', { details });
  }
}

/** The quoted fare is gone but the flight still has seats: `details` carries a fresh offer. */
export class PriceChangedError extends ApiError {
  readonly code = 'PRICE_CHANGED' as const;
  constructor(details: {
    previous_total_price: number;
    total_price: number;
    currency: string;
    /** A fresh offer at the new price (booking create); absent when a held price moved (confirm). */
    flight?: unknown;
  }) {
    super(
      details.flight === undefined
        ? 'The price to confirm at has changed; confirm again at the new price.'
        : 'The quoted fare is no longer available; the flight is offered at a new price.',
      { details },
    );
  }
}

/**
 * The offer's fare conditions are no longer those it was quoted with (docs/API.md §2): `details.flight`
 * is a fresh offer with today's conditions and a new id; nothing was booked.
 */
export class ConditionsChangedError extends ApiError {
  readonly code = 'CONDITIONS_CHANGED' as const;
  constructor(details: { flight: unknown; change_offer?: unknown }) {
    super("The fare's conditions have changed since search; the flight is offered with its new conditions.", {
      details,
    });
  }
}

/** `hold: true` on an offer that cannot be held (docs/API.md §4.4). */
export class HoldNotAvailableError extends fixedError(
  'HOLD_NOT_AVAILABLE',
  'This offer cannot be held: it departs too soon, or must be paid at once.',
) {}

/** Confirm of a booking that is not held (a confirmed one at its price answers 200 instead). */
export class NotHeldError extends fixedError(
  'NOT_HELD',
  'The booking is not held, so there is nothing to confirm.',
) {}

/** Confirm after the hold's `payment_required_by`: the seats went back on sale. */
export class HoldExpiredError extends fixedError(
  'HOLD_EXPIRED',
  'The hold expired before it was confirmed; search and book again.',
) {}

export class SoldOutError extends fixedError(
  'SOLD_OUT',
  'Not enough seats are left on this flight for the passengers.',
) {}

/** A chosen seat was taken, or a bag sold out, between the seat map and the booking (docs/API.md §4.10). */
export class SeatUnavailableError extends ApiError {
  readonly code = 'SEAT_UNAVAILABLE' as const;
  constructor(details: ErrorDetail[]) {
    super('A chosen seat or service is no longer available; nothing was booked. See details.', { details });
  }
}

export class NotCancellableError extends fixedError(
  'NOT_CANCELLABLE',
  'The booking can no longer be cancelled: its first flight has departed.',
) {}

/** A change the booking's conditions, status or departed journeys do not allow (docs/API.md §4.9). */
export class NotChangeableError extends fixedError(
  'NOT_CHANGEABLE',
  'This booking cannot be changed: its fare does not allow it, it is not confirmed, or it has departed.',
) {}

/** A change whose total moved since it was quoted (docs/API.md §4.9): `details` carries the fresh ChangeOffer. */
export class ChangePriceChangedError extends ApiError {
  readonly code = 'PRICE_CHANGED' as const;
  constructor(details: {
    previous_total_price: number;
    total_price: number;
    currency: string;
    change_offer: unknown;
  }) {
    super('The change is no longer offered at that total; the fresh change offer is in details.', {
      details,
    });
  }
}

/** Cancel at a refund no longer given (docs/API.md §4.3): worded, with its details, by refund-quote.ts. */
export class RefundChangedError extends ApiError {
  readonly code = 'REFUND_CHANGED' as const;
}

/** The supplier refused the booking for a reason no field check could foresee. */
export class SupplierRejectedError extends ApiError {
  readonly code = 'SUPPLIER_REJECTED' as const;
  constructor(details: { path?: string; message: string }[]) {
    super('The airline or supplier refused the booking; see details.', { details });
  }
}

export class IdempotencyInProgressError extends ApiError {
  readonly code = 'IDEMPOTENCY_IN_PROGRESS' as const;
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry shortly.', {
      headers: { 'Retry-After': '1' },
    });
  }
}

export class OfferExpiredError extends fixedError(
  'OFFER_EXPIRED',
  'This offer has expired or was already booked; search again.',
) {}

export class IdempotencyKeyReusedError extends fixedError(
  'IDEMPOTENCY_KEY_REUSED',
  'This Idempotency-Key was used with a different request body.',
) {}

export class PayloadTooLargeError extends ApiError {
  readonly code = 'PAYLOAD_TOO_LARGE' as const;
}

export class UnsupportedMediaTypeError extends fixedError(
  'UNSUPPORTED_MEDIA_TYPE',
  'Send the body as JSON with Content-Type: application/json.',
) {}

/** What API Gateway's stage throttle answers (infra/gateway.ts), on any route. */
export const THROTTLED_MESSAGE = 'Too many requests; slow down.';

/** Too many requests; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimitedError extends ApiError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(retryAfterSeconds: number, message = 'Too many codes requested; try again later.') {
    super(message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class TooManyAttemptsError extends fixedError(
  'TOO_MANY_ATTEMPTS',
  'Too many wrong codes: this code is void; request a new one.',
) {}

export class InternalError extends fixedError('INTERNAL_ERROR', 'Something went wrong on our side.') {}

/** A dependency (DynamoDB, SES, SNS) failed after bounded retries and nothing was written. */
export class ServiceUnavailableError extends ApiError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  constructor(retryAfterSeconds?: number) {
    super('A service we depend on is unavailable; try again shortly.', {
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
