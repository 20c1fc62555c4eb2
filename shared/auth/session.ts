/**
 * Who is calling: the agent a verified session token speaks for. Shared by auth (which makes it) and
 * every layer that needs to know the caller; it knows nothing of HTTP.
 */
export interface Session {
  readonly agentId: string;
  readonly agencyId: string;
  /** The token's `jti`. */
  readonly tokenId: string;
  /** The token's `exp`, epoch seconds. */
  readonly expiresAt: number;
}
