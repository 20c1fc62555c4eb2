import * as z from 'zod/mini';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Session } from './session.ts';
import { endEverySession, revokeToken } from './session-state-item.ts';
import '../zod-locale.ts';

/** Logout takes one optional field; any other sent is ignored. Built when first used (http/validate.ts). */
export const logoutRequest = () =>
  z.object({
    everywhere: z.optional(
      z.boolean('must be true or false').check(
        z.meta({
          description:
            'true: end every session of the calling agent (all its tokens, on every device) from the next request on; false or absent: only this token',
        }),
      ),
    ),
  });

/**
 * `POST /api/auth/logout`: revokes the caller's token until its expiry; with `everywhere`, ends every
 * session the caller holds (its session state's `valid_after`, the same mark deactivation sets). One
 * UpdateItem either way.
 */
export function logout(deps: TableHandle & { readonly clock: Clock }) {
  return async (session: Session, body: z.output<ReturnType<typeof logoutRequest>> = {}): Promise<void> => {
    if (!body.everywhere) return revokeToken(deps, session);
    // Released between the session check and now: nothing left to end.
    if (!(await endEverySession(deps, session.agentId, deps.clock.now())))
      throw new UnauthorizedError({ tokenPresented: true });
  };
}
