import type { MiddlewareObj } from '@middy/core';
import type { ApiEvent, ApiResult, Session } from './api-event.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import { UnauthorizedError } from './errors.ts';
import { readHeader } from './headers.ts';

/** The presented token: the `Authorization: Bearer` header wins; else the session cookie. */
export function presentedToken(event: ApiEvent): string | undefined {
  const authorization = readHeader(event.headers, 'authorization');
  if (authorization !== undefined) {
    // A malformed header is refused rather than silently falling back to the cookie.
    const match = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i.exec(authorization);
    if (!match) throw new UnauthorizedError();
    return match[1];
  }
  return readCookie(readHeader(event.headers, 'cookie'), SESSION_COOKIE);
}

/** Requires a valid, unrevoked session; 401 `UNAUTHORIZED` otherwise. */
export function authenticate(
  verify: (token: string) => Promise<Session>,
): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: async ({ event }) => {
      const token = presentedToken(event);
      if (!token) throw new UnauthorizedError();
      event.session = await verify(token);
    },
  };
}
