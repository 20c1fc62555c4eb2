import type { Role } from './roles.ts';

/**
 * Who is calling: the agent a verified session token speaks for, as the session state says it is now
 * (role and name are read on every request, not taken from the token). Shared by auth (which makes
 * it) and every layer that needs to know the caller; it knows nothing of HTTP.
 */
export interface Session {
  readonly agentId: string;
  readonly agencyId: string;
  readonly agentName: string;
  /**
   * The identifier the agent signs in with, from the same read (its session state mirrors it);
   * undefined only for a state written before it did (docs/decisions.md, "The session route").
   */
  readonly identifier: string | undefined;
  readonly role: Role;
  /** The token's `jti`. */
  readonly tokenId: string;
  /** The token's `iat`, epoch seconds: a change made in the caller's name is conditioned on it. */
  readonly issuedAt: number;
  /** The token's `exp`, epoch seconds. */
  readonly expiresAt: number;
  /** The sign-in the token comes from (its `auth_time`), epoch seconds: a refresh carries it over. */
  readonly signedInAt: number;
  /** This agent's logged-out tokens that have expired since: the next logout clears them. */
  readonly expiredLogouts: readonly string[];
}
