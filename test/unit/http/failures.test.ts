import { describe, expect, it } from 'vitest';
import { InternalError, NotFoundError, ServiceUnavailableError } from '#shared/errors.ts';
import { toApiError } from '#shared/http/failures.ts';

const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, $metadata: {}, ...extra });
const cancelled = (...codes: string[]) =>
  awsError('TransactionCanceledException', {
    $fault: 'client',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('http: 500 or 503', () => {
  it.each([
    ['a throttle', awsError('ThrottlingException', { $fault: 'client' })],
    ['exceeded throughput', awsError('ProvisionedThroughputExceededException', { $fault: 'client' })],
    ['an SDK timeout', Object.assign(new Error('t'), { name: 'TimeoutError' })],
    ['a server fault', awsError('InternalServerError', { $fault: 'server' })],
    ['a refused connection', Object.assign(new Error('c'), { code: 'ECONNREFUSED' })],
    ['a transaction cancelled for throttling only', cancelled('None', 'ThrottlingError', 'None')],
    ['a transaction conflict', cancelled('TransactionConflict', 'None')],
  ])('answers %s with 503', (_case, error) => {
    expect(toApiError(error)).toBeInstanceOf(ServiceUnavailableError);
  });

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['a failed condition', awsError('ConditionalCheckFailedException', { $fault: 'client' })],
    ['a transaction cancelled by a condition', cancelled('ConditionalCheckFailed', 'ThrottlingError')],
    ['a validation error from DynamoDB', awsError('ValidationException', { $fault: 'client' })],
    ['something thrown that is not an Error', 'oops'],
    ['null', null],
  ])('answers %s with 500', (_case, error) => {
    expect(toApiError(error)).toBeInstanceOf(InternalError);
  });

  it('passes the catalogue’s own errors through unchanged', () => {
    const notFound = new NotFoundError('No such booking in your agency.');

    expect(toApiError(notFound)).toBe(notFound);
  });
});
