import type { MiddlewareObj } from '@middy/core';
import type { Session } from '../auth/session.ts';
import { UnauthorizedError, UnsupportedMediaTypeError } from '../errors.ts';
import type { ApiEvent, ApiResult } from './api-event.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import { refuseCrossSite } from './cross-site.ts';
import { readHeader, readHeaderValues } from './headers.ts';
import { isJsonRequest } from './json-body.ts';

/**
 * The presented token and where it came from: the `Authorization: Bearer` header wins; else the
 * session cookie, read from every `Cookie` field. The cookie twice (in one field or two) is 401: a
 * browser holds one `__Host-session`, so a second one was planted, and neither is taken.
 */
function presentedToken(event: ApiEvent): { token: string; via: 'bearer' | 'cookie' } | undefined {
  const authorization = readHeader(event.headers, 'authorization');
  if (authorization !== undefined) {
    // A malformed header is refused rather than silently falling back to the cookie. The token's
    // own spelling is judged by the verifier (one spelling per token).
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match?.[1]) throw new UnauthorizedError({ tokenPresented: true });
    return { token: match[1], via: 'bearer' };
  }
  const cookie = readCookie(readHeaderValues(event, 'cookie'), SESSION_COOKIE);
  if (cookie.kind === 'several') throw new UnauthorizedError({ tokenPresented: true });
  return cookie.kind === 'one' ? { token: cookie.value, via: 'cookie' } : undefined;
}

/**
 * Requires a valid, unrevoked session; 401 `UNAUTHORIZED` otherwise. A request that rides on the
 * cookie must say `Content-Type: application/json` even with an empty body (415 otherwise): a
 * cross-site form can send the cookie with `text/plain` but cannot send JSON without a CORS preflight;
 * and it must not come from another site (403, cross-site.ts), `corsOrigins` being the stage's own.
 */
export function authenticate(
  verify: (token: string) => Promise<Session>,
  corsOrigins: readonly string[],
): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: async ({ event }) => {
      const presented = presentedToken(event);
      if (!presented) throw new UnauthorizedError();
      if (presented.via === 'cookie') {
        if (!isJsonRequest(event)) throw new UnsupportedMediaTypeError();
        refuseCrossSite(event, corsOrigins);
      }
      event.session = await verify(presented.token);
      event.sessionVia = presented.via;
    },
  };
}
