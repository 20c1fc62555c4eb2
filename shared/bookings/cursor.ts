import { decodeCanonicalBase64url } from '../base64url.ts';
import { ValidationError } from '../errors.ts';

/**
 * The cursor is the position of the last booking returned, opaque to clients; only the exact text
 * issued is accepted (no padding, other alphabet or changed bits).
 */
export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');
export function decodeCursor(cursor: string): { createdAt: string; bookingId: string } {
  const position = decodeCanonicalBase64url(cursor)?.toString('utf8') ?? '';
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)#(bkg_[0-9A-HJKMNP-TV-Z]{26})$/.exec(position);
  if (!match?.[1] || !match[2])
    throw new ValidationError([{ path: 'cursor', message: 'is not a cursor this API returned' }]);
  return { createdAt: match[1], bookingId: match[2] };
}
