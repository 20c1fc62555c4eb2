import * as z from 'zod';
import type { Session } from './session.ts';
import { revokeSessionToken, type TokenStore } from './session-token.ts';

/** Logout takes no fields; any sent are ignored. */
export const LogoutRequest = z.object({});

/** `POST /api/auth/logout`: revokes the caller's token until its expiry. */
export function logout(deps: TokenStore) {
  return async (session: Session): Promise<void> => {
    await revokeSessionToken(session, deps);
  };
}
