import { ValidationError } from '../errors.ts';
import { type HeaderMap, readHeader } from './headers.ts';

/** The `Idempotency-Key` header, when present: 1-255 printable ASCII characters. */
export function idempotencyKeyOf(headers: HeaderMap): string | undefined {
  const key = readHeader(headers, 'idempotency-key');
  if (key === undefined) return undefined;
  if (!/^[\x20-\x7E]{1,255}$/.test(key)) {
    throw new ValidationError([
      { path: 'Idempotency-Key', message: 'must be 1-255 printable ASCII characters' },
    ]);
  }
  return key;
}
