import type { CurrentSession } from '../auth/current-session.ts';
import type { SignedIn } from '../auth/verify-otp.ts';
import { isoSeconds } from '../clock.ts';
import type { Reply } from './api-event.ts';
import { clearedSessionCookie, sessionCookie } from './cookies.ts';

/**
 * verify-otp's answer (docs/API.md §3.2): the token in the body and, for browsers, in the session
 * cookie; with `cookieOnly` (the request's `cookie_only`) in the cookie alone, so no page script sees it.
 */
export function signedInReply(signedIn: SignedIn, options: { cookieOnly: boolean }): Reply {
  const session = {
    expires_in: signedIn.lifetimeSeconds,
    expires_at: isoSeconds(signedIn.expiresAt * 1000),
    agent: signedIn.agent,
  };
  return {
    status: 200,
    data: options.cookieOnly
      ? session
      : { verification_token: signedIn.token, token_type: 'Bearer', ...session },
    headers: { 'Set-Cookie': sessionCookie(signedIn.token, signedIn.lifetimeSeconds) },
  };
}

/** logout's answer (docs/API.md §3.3): nothing, and the cookie cleared. */
export function signedOutReply(): Reply {
  return { status: 200, data: {}, headers: { 'Set-Cookie': clearedSessionCookie() } };
}

/** The session route's answer (docs/API.md §3.3a): who is calling, until when, and by which means. */
export function currentSessionReply(current: CurrentSession, via: 'bearer' | 'cookie'): Reply {
  return {
    status: 200,
    data: { agent: current.agent, expires_at: isoSeconds(current.expiresAt * 1000), via },
  };
}
