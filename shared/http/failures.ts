import { cancellationCodes } from '../db/client.ts';
import { ApiError, InternalError, ServiceUnavailableError } from '../errors.ts';

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
function isDependencyFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as {
    name?: unknown;
    code?: unknown;
    $fault?: unknown;
    $metadata?: unknown;
  };
  if (typeof e.name === 'string' && transientNames.has(e.name)) return true;
  // A transaction cancelled only because DynamoDB was throttling or busy: nothing was written.
  const codes = cancellationCodes(error);
  if (codes) {
    return (
      codes.some((code) => transientReasons.has(code)) &&
      codes.every((code) => code === 'None' || transientReasons.has(code))
    );
  }
  if (typeof e.code === 'string' && transientNetworkCodes.has(e.code)) return true;
  return e.$metadata !== undefined && e.$fault === 'server';
}

/** Maps anything thrown to the error the client sees. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDependencyFailure(error)) return new ServiceUnavailableError();
  return new InternalError();
}
