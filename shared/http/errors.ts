/**
 * Every failure the API reports is one of these classes: an HTTP status, a stable `code` (API.md §2)
 * and a human message. The envelope middleware maps them to the response once; anything else becomes
 * a 500 or 503 whose message never leaves the process.
 */
export interface ErrorDetail {
  path: string;
  message?: string;
  expected?: unknown;
  received?: unknown;
}

export abstract class HttpError extends Error {
  abstract readonly statusCode: number;
  abstract readonly code: string;
  /** Whether `message` may be shown to the client (only client errors are). */
  get expose(): boolean {
    return this.statusCode < 500;
  }
  /** One entry per problem, or for PRICE_CHANGED an object (API.md §2). */
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

export class InvalidJsonError extends HttpError {
  readonly statusCode = 400;
  readonly code = 'INVALID_JSON';
}

export class ValidationError extends HttpError {
  readonly statusCode = 400;
  readonly code = 'VALIDATION_ERROR';
  constructor(details: ErrorDetail[]) {
    super('The request body is not valid; see details.', { details });
  }
}

/** The challenge every 401 carries (API.md §2; RFC 6750 §3). */
const BEARER_CHALLENGE = 'Bearer realm="flight-booking"';

export class UnauthorizedError extends HttpError {
  readonly statusCode = 401;
  readonly code = 'UNAUTHORIZED';
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

export class InvalidCodeError extends HttpError {
  readonly statusCode = 401;
  readonly code = 'INVALID_CODE';
  constructor() {
    super('The code is wrong, expired or already used.', {
      headers: { 'WWW-Authenticate': BEARER_CHALLENGE },
    });
  }
}

export class NotFoundError extends HttpError {
  readonly statusCode = 404;
  readonly code = 'NOT_FOUND';
}

export class FlightNotFoundError extends HttpError {
  readonly statusCode = 404;
  readonly code = 'FLIGHT_NOT_FOUND';
  constructor() {
    super('No such flight offer was issued to your agency.');
  }
}

export class MethodNotAllowedError extends HttpError {
  readonly statusCode = 405;
  readonly code = 'METHOD_NOT_ALLOWED';
  constructor(allow: string) {
    super(`Use ${allow} for this path.`, { headers: { Allow: allow } });
  }
}

export class FlightMismatchError extends HttpError {
  readonly statusCode = 409;
  readonly code = 'FLIGHT_MISMATCH';
  constructor(details: ErrorDetail[]) {
    super('The flight details differ from what search quoted; see details.', { details });
  }
}

/** The quoted fare is gone but the flight still has seats: `details` carries a fresh offer. */
export class PriceChangedError extends HttpError {
  readonly statusCode = 409;
  readonly code = 'PRICE_CHANGED';
  constructor(details: {
    previous_total_price: number;
    total_price: number;
    currency: string;
    flight: unknown;
  }) {
    super('The quoted fare is no longer available; the flight is offered at a new price.', { details });
  }
}

export class SoldOutError extends HttpError {
  readonly statusCode = 409;
  readonly code = 'SOLD_OUT';
  constructor() {
    super('Not enough seats are left on this flight for the passengers.');
  }
}

export class NotCancellableError extends HttpError {
  readonly statusCode = 409;
  readonly code = 'NOT_CANCELLABLE';
  constructor() {
    super('The booking can no longer be cancelled: its first flight has departed.');
  }
}

export class IdempotencyInProgressError extends HttpError {
  readonly statusCode = 409;
  readonly code = 'IDEMPOTENCY_IN_PROGRESS';
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry shortly.', {
      headers: { 'Retry-After': '1' },
    });
  }
}

export class OfferExpiredError extends HttpError {
  readonly statusCode = 410;
  readonly code = 'OFFER_EXPIRED';
  constructor() {
    super('This offer has expired or was already booked; search again.');
  }
}

export class IdempotencyKeyReusedError extends HttpError {
  readonly statusCode = 422;
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor() {
    super('This Idempotency-Key was used with a different request body.');
  }
}

/** An outcome stored under an Idempotency-Key, answered again as it was. */
export class ReplayedError extends HttpError {
  readonly statusCode: number;
  readonly code: string;
  constructor(stored: {
    status: number;
    code: string;
    message: string;
    details?: ErrorDetail[] | Record<string, unknown>;
  }) {
    super(stored.message, { details: stored.details, headers: { 'Idempotent-Replayed': 'true' } });
    this.statusCode = stored.status;
    this.code = stored.code;
  }
}

export class PayloadTooLargeError extends HttpError {
  readonly statusCode = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class UnsupportedMediaTypeError extends HttpError {
  readonly statusCode = 415;
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  constructor() {
    super('Send the body as JSON with Content-Type: application/json.');
  }
}

/** Too many requests; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimitedError extends HttpError {
  readonly statusCode = 429;
  readonly code = 'RATE_LIMITED';
  constructor(retryAfterSeconds: number, message = 'Too many codes requested; try again later.') {
    super(message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class TooManyAttemptsError extends HttpError {
  readonly statusCode = 429;
  readonly code = 'TOO_MANY_ATTEMPTS';
  constructor() {
    super('Too many wrong codes: this code is void; request a new one.');
  }
}

export class InternalError extends HttpError {
  readonly statusCode = 500;
  readonly code = 'INTERNAL_ERROR';
  constructor() {
    super('Something went wrong on our side.');
  }
}

/** A dependency (DynamoDB, SES, SNS) failed after bounded retries and nothing was written. */
export class ServiceUnavailableError extends HttpError {
  readonly statusCode = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
  constructor(retryAfterSeconds?: number) {
    super('A service we depend on is unavailable; try again shortly.', {
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** Network-level failures and AWS faults that retrying later may cure. */
const transientNames = new Set([
  'TimeoutError',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
]);
const transientReasons = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
  'TransactionConflict',
]);
const transientNetworkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether `error` is a dependency failure (answered 503) rather than a bug (answered 500): an AWS
 * service fault, a throttle, or a network error, after the SDK's own bounded retries.
 */
export function isDependencyFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as {
    name?: unknown;
    code?: unknown;
    $fault?: unknown;
    $metadata?: unknown;
    CancellationReasons?: { Code?: string }[];
  };
  if (typeof e.name === 'string' && transientNames.has(e.name)) return true;
  // A transaction cancelled only because DynamoDB was throttling or busy: nothing was written.
  if (e.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
    return (
      codes.some((code) => transientReasons.has(code)) &&
      codes.every((code) => code === 'None' || transientReasons.has(code))
    );
  }
  if (typeof e.code === 'string' && transientNetworkCodes.has(e.code)) return true;
  return e.$metadata !== undefined && e.$fault === 'server';
}

/** Maps anything thrown to the error the client sees. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (isDependencyFailure(error)) return new ServiceUnavailableError();
  return new InternalError();
}
