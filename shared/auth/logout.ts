import * as z from 'zod';
import { UnauthorizedError } from '../errors.ts';
import type { ApiRequest, Reply } from '../http/api-event.ts';
import { clearedSessionCookie } from '../http/cookies.ts';
import { revokeSessionToken, type TokenStore } from './session-token.ts';

/** Logout takes no fields; any sent are ignored. */
export const LogoutRequest = z.object({});

/** `POST /api/auth/logout`: revokes the presented token until its expiry and clears the cookie. */
export function logout(deps: TokenStore) {
  return async (request: ApiRequest<z.output<typeof LogoutRequest>>): Promise<Reply> => {
    if (!request.session) throw new UnauthorizedError();
    await revokeSessionToken(request.session, deps);
    return { status: 200, data: {}, headers: { 'Set-Cookie': clearedSessionCookie() } };
  };
}
