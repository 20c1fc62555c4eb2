import { ValidationError } from '../errors.ts';
import type { Reply } from './api-event.ts';
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

/** What a reply adds when it answers a stored outcome again. */
const REPLAYED = { headers: { 'Idempotent-Replayed': 'true' } } as const;

/** The reply to a request that may be an Idempotency-Key replay: a replay says so in its headers. */
export function idempotentReply(status: number, outcome: { booking: unknown; replayed: boolean }): Reply {
  return { status, data: outcome.booking, ...(outcome.replayed && REPLAYED) };
}
