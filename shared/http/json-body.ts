import type { MiddlewareObj } from '@middy/core';
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';
import type { ApiEvent, ApiResult } from './api-event.ts';
import { readHeader } from './headers.ts';

/** Bodies over this many bytes are refused (API.md §5). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Whether the request says `Content-Type: application/json` (parameters such as `charset` allowed). */
export function isJsonRequest(event: ApiEvent): boolean {
  const mediaType = readHeader(event.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * Reads the body as a JSON object: 413 over 64 KiB, 415 without a JSON content type, 400 when it is
 * not JSON or not an object. An empty body is `{}`, so body-less calls such as logout need no header.
 */
export function jsonBody(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: ({ event }) => {
      const raw = event.body ?? '';
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
      if (bytes.length > MAX_BODY_BYTES) {
        throw new PayloadTooLargeError(`The body is over ${MAX_BODY_BYTES} bytes.`);
      }
      if (bytes.length === 0) {
        event.jsonBody = {};
        return;
      }
      if (!isJsonRequest(event)) throw new UnsupportedMediaTypeError();
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new InvalidJsonError('The body is not valid JSON.');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new InvalidJsonError('The body must be a JSON object.');
      }
      event.jsonBody = parsed as Record<string, unknown>;
    },
  };
}
