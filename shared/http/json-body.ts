import type { MiddlewareObj, Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';
import type { ApiEvent, ApiResult } from './api-event.ts';
import { readHeader } from './headers.ts';

/** Bodies over this many bytes are refused (docs/API.md §5). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Whether the request says `Content-Type: application/json` (parameters such as `charset` allowed). */
export function isJsonRequest(event: ApiEvent): boolean {
  const mediaType = readHeader(event.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/** middy's parser refuses these keys; the contract ignores unknown fields instead (docs/API.md §1). */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The body as a JSON object. middy's `http-json-body-parser` parses; around it, only what the
 * contract adds: 413 over 64 KiB, an empty body is `{}`, 415 unless the media type is exactly
 * `application/json` (middy would also take `application/*+json`), 400 `INVALID_JSON` for what does
 * not parse or is not an object, and prototype keys ignored like any unknown field rather than refused.
 */
export function jsonBody(): MiddlewareObj<ApiEvent, ApiResult> {
  // The media type is judged here, against the contract's one type, before the parser runs.
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request) => {
      const { event } = request;
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
      const parsed = await parseWithMiddy(parser, request, bytes.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new InvalidJsonError('The body must be a JSON object.');
      }
      event.jsonBody = parsed as Record<string, unknown>;
    },
  };
}

async function parseWithMiddy(
  parser: MiddlewareObj<ApiEvent, ApiResult>,
  request: Request<ApiEvent, ApiResult>,
  text: string,
): Promise<unknown> {
  const original = request.event.body;
  try {
    await parser.before?.(request);
    return request.event.body;
  } catch (error) {
    const refusedKey = (error as { message?: string }).message === 'Forbidden key in JSON body';
    if (!refusedKey) throw new InvalidJsonError('The body is not valid JSON.');
    // Valid JSON carrying `__proto__` or `constructor.prototype`: drop those keys, as the schemas
    // would drop any other unknown field (returning undefined from a reviver deletes the key).
    return JSON.parse(text, (key, value) => (PROTOTYPE_KEYS.has(key) ? undefined : value));
  } finally {
    // The raw text stays in the event for anything that logs or fingerprints the request.
    request.event.body = original;
  }
}
