/**
 * The error catalogue: every failure the API reports is one of these classes, with a stable `code`
 * from the contract's table (docs/API.md §2), the status that code answers and a human message. Domain code
 * throws them without knowing about HTTP; the envelope middleware alone turns them into responses, and
 * anything else into a 500 or 503 whose message never leaves the process.
 */

import { ERROR_STATUS, type ErrorCode } from './error-codes.ts';

export interface ErrorDetail {
  path: string;
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
export class ForbiddenError extends ApiError {
  readonly code = 'FORBIDDEN' as const;
  constructor() {
    super('Your role does not allow this.');
  }
}

/** The e-mail address or phone number already signs in another agent. */
export class IdentifierTakenError extends ApiError {
  readonly code = 'IDENTIFIER_TAKEN' as const;
  constructor() {
    super('This e-mail address or phone number is already an agent’s sign-in identifier.');
  }
}

/** The change would leave the agency without an active ADMIN. */
export class LastAdminError extends ApiError {
  readonly code = 'LAST_ADMIN' as const;
  constructor() {
    super('The agency would be left without an active ADMIN: make another agent ADMIN first.');
  }
}

/** The agency's cap on agents or webhook endpoints is reached. */
export class LimitReachedError extends ApiError {
  readonly code = 'LIMIT_REACHED' as const;
}

export class NotFoundError extends ApiError {
  readonly code = 'NOT_FOUND' as const;
}

export class FlightNotFoundError extends ApiError {
  readonly code = 'FLIGHT_NOT_FOUND' as const;
  constructor() {
    super('No such flight offer was issued to your agency.');
  }
}

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
    flight: unknown;
  }) {
    super('The quoted fare is no longer available; the flight is offered at a new price.', { details });
  }
}

export class SoldOutError extends ApiError {
  readonly code = 'SOLD_OUT' as const;
  constructor() {
    super('Not enough seats are left on this flight for the passengers.');
  }
}

export class NotCancellableError extends ApiError {
  readonly code = 'NOT_CANCELLABLE' as const;
  constructor() {
    super('The booking can no longer be cancelled: its first flight has departed.');
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

export class OfferExpiredError extends ApiError {
  readonly code = 'OFFER_EXPIRED' as const;
  constructor() {
    super('This offer has expired or was already booked; search again.');
  }
}

export class IdempotencyKeyReusedError extends ApiError {
  readonly code = 'IDEMPOTENCY_KEY_REUSED' as const;
  constructor() {
    super('This Idempotency-Key was used with a different request body.');
  }
}

/** An outcome stored under an Idempotency-Key, answered again as it was. */
export class ReplayedError extends ApiError {
  readonly code: ErrorCode;
  constructor(stored: {
    code: ErrorCode;
    message: string;
    details?: ErrorDetail[] | Record<string, unknown>;
  }) {
    super(stored.message, { details: stored.details, headers: { 'Idempotent-Replayed': 'true' } });
    this.code = stored.code;
  }
}

export class PayloadTooLargeError extends ApiError {
  readonly code = 'PAYLOAD_TOO_LARGE' as const;
}

export class UnsupportedMediaTypeError extends ApiError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE' as const;
  constructor() {
    super('Send the body as JSON with Content-Type: application/json.');
  }
}

/** Too many requests; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimitedError extends ApiError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(retryAfterSeconds: number, message = 'Too many codes requested; try again later.') {
    super(message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class TooManyAttemptsError extends ApiError {
  readonly code = 'TOO_MANY_ATTEMPTS' as const;
  constructor() {
    super('Too many wrong codes: this code is void; request a new one.');
  }
}

export class InternalError extends ApiError {
  readonly code = 'INTERNAL_ERROR' as const;
  constructor() {
    super('Something went wrong on our side.');
  }
}

/** A dependency (DynamoDB, SES, SNS) failed after bounded retries and nothing was written. */
export class ServiceUnavailableError extends ApiError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  constructor(retryAfterSeconds?: number) {
    super('A service we depend on is unavailable; try again shortly.', {
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
