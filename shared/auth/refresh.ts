import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import { currentSession } from './current-session.ts';
import type { Session } from './session.ts';
import { revokeToken } from './session-state-item.ts';
import { issueSessionToken, type TokenDeps } from './session-token.ts';
import type { SignedIn } from './verify-otp.ts';
import '../zod-locale.ts';

/** Refresh takes one optional field; any other sent is ignored. Built when first used (http/validate.ts). */
export const refreshRequest = () =>
  z.object({
    cookie_only: z.optional(
      z.boolean('must be true or false').check(
        z.meta({
          description:
            'true: the fresh session is answered only as the HttpOnly __Host-session cookie, never in the body (no verification_token or token_type), as in verify-otp. Browser clients should send it.',
        }),
      ),
    ),
  });

/**
 * `POST /api/auth/refresh` (docs/API.md §3.3b): a fresh token for the caller's live session, carrying
 * the session's sign-in time over (so it expires one hour from now, or 12 hours after the sign-in if
 * that is sooner), and the presented token revoked. The session check already refused a revoked,
 * expired or deactivated session, and a token 12 hours from its sign-in is expired. One UpdateItem
 * after the session read; the agent answered is the one that read found.
 */
export function refresh(deps: TableHandle & TokenDeps) {
  return async (session: Session): Promise<SignedIn> => {
    const { agent } = currentSession(session);
    const { token, expiresAt } = await issueSessionToken(agent, deps, session.signedInAt);
    await revokeToken(deps, session);
    return {
      token,
      expiresAt,
      lifetimeSeconds: expiresAt - Math.floor(deps.clock.now() / 1000),
      agent,
    };
  };
}
