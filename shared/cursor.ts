import * as z from 'zod/mini';
import { decodeCanonicalBase64url } from './base64url.ts';
import { ValidationError } from './errors.ts';
import './zod-locale.ts';

/**
 * A list cursor: the position of the last item returned, opaque to clients (base64url of the text),
 * and the filter of the list it walks, if any (`<position>|<filter>`): a cursor is good only for the
 * filter it was issued with.
 *
 * @example encodeCursor('2026-11-24T09:32:05Z#bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX', 'status=HELD')
 */
export const encodeCursor = (position: string, filter?: string) =>
  Buffer.from(filter === undefined ? position : `${position}${FILTER_MARK}${filter}`, 'utf8').toString(
    'base64url',
  );

/** Between a cursor's position and its filter: no position a list issues contains it. */
const FILTER_MARK = '|';

/**
 * The position a cursor carries, read with `read` (undefined when it is not a position that list
 * issues). Only the exact text issued is accepted — no padding, other alphabet or changed bits — and
 * anything else is 400 on `cursor`; so is a cursor issued for another `filter` than this request's.
 */
export function decodeCursor<T>(
  cursor: string,
  read: (position: string) => T | undefined,
  filter?: string,
): T {
  const text = decodeCanonicalBase64url(cursor)?.toString('utf8');
  const mark = text?.indexOf(FILTER_MARK) ?? -1;
  const position = mark < 0 ? text : text?.slice(0, mark);
  const value = position === undefined ? undefined : read(position);
  if (value === undefined)
    throw new ValidationError([{ path: 'cursor', message: 'is not a cursor this API returned' }]);
  if ((mark < 0 ? undefined : text?.slice(mark + 1)) !== filter)
    throw new ValidationError([
      { path: 'cursor', message: 'was returned for another filter: send the filter it was returned with' },
    ]);
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
