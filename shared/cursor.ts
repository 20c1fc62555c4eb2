import * as z from 'zod/mini';
import { decodeCanonicalBase64url } from './base64url.ts';
import { ValidationError } from './errors.ts';
import './zod-locale.ts';

/**
 * A list cursor: the position of the last item returned, opaque to clients (base64url of the text).
 *
 * @example encodeCursor('2026-11-24T09:32:05Z#bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX')
 */
export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');

/**
 * The position a cursor carries, read with `read` (undefined when it is not a position that list
 * issues). Only the exact text issued is accepted — no padding, other alphabet or changed bits — and
 * anything else is 400 on `cursor`.
 */
export function decodeCursor<T>(cursor: string, read: (position: string) => T | undefined): T {
  const position = decodeCanonicalBase64url(cursor)?.toString('utf8');
  const value = position === undefined ? undefined : read(position);
  if (value === undefined)
    throw new ValidationError([{ path: 'cursor', message: 'is not a cursor this API returned' }]);
  return value;
}

/**
 * The paging fields every list request takes: `limit` (1–100, `defaultLimit` when omitted) and the
 * `cursor` a previous page returned.
 */
export const pageFields = (defaultLimit: number) => ({
  limit: z._default(
    z
      .int('must be a whole number')
      .check(z.minimum(1, 'must be between 1 and 100'), z.maximum(100, 'must be between 1 and 100')),
    defaultLimit,
  ),
  cursor: z.optional(z.string().check(z.maxLength(512))).check(
    z.meta({
      description: 'A meta.next_cursor this API returned, exactly as returned; omit for the first page',
    }),
  ),
});
