import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import type { Session } from './session.ts';
import { revokeToken } from './session-state-item.ts';
import '../zod-locale.ts';

/** Logout takes no fields; any sent are ignored. */
export const LogoutRequest = z.object({});

/** `POST /api/auth/logout`: revokes the caller's token until its expiry. */
export function logout(deps: TableHandle) {
  return async (session: Session): Promise<void> => {
    await revokeToken(deps, session);
  };
}
