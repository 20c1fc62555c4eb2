import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import { keys } from '../db/table.ts';
import { type Role, roleOf } from './roles.ts';
import type { Session } from './session.ts';

/**
 * The one item an authenticated request reads (`AGENTID#<id>` / `SESSION`): enough to answer "is this
 * token still good, and who is it now?" in a single consistent GetItem. Written with the agent's
 * profile whenever the agent changes; logout adds to `revoked`.
 */
export interface SessionState {
  agency_id: string;
  name: string;
  role: Role;
  active: boolean;
  /** Tokens issued before this (epoch seconds) are refused: set when the agent is deactivated. */
  valid_after: number;
  /** Logged-out tokens: `jti` → `exp`. Expired entries are dropped by the next logout. */
  revoked: Record<string, number>;
}

/** The claims of a token whose signature, type, issuer, audience and times were verified. */
export interface VerifiedClaims {
  agentId: string;
  agencyId: string;
  tokenId: string;
  issuedAt: number;
  expiresAt: number;
}

/** The session state of `agentId`, or undefined when the agent has none (never registered). */
export async function readSessionState(
  store: TableHandle,
  agentId: string,
): Promise<SessionState | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.sessionState(agentId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    agency_id: String(Item.agency_id),
    name: String(Item.name ?? ''),
    role: roleOf(Item.role),
    active: Item.active === true,
    valid_after: Number(Item.valid_after ?? 0),
    revoked: (Item.revoked as Record<string, number> | undefined) ?? {},
  };
}

/**
 * Whether verified claims still make a session (docs/API.md §3.4): the agent exists in the token's
 * agency, is active, the token was issued after the agent's tokens were last invalidated, and was not
 * logged out. Pure: the caller did the one read.
 */
export function isSessionValid(
  claims: VerifiedClaims,
  state: SessionState | undefined,
): state is SessionState {
  return (
    state !== undefined &&
    state.agency_id === claims.agencyId &&
    state.active &&
    claims.issuedAt >= state.valid_after &&
    state.revoked[claims.tokenId] === undefined
  );
}

/** Logged-out tokens in `state` past their expiry: nothing needs to remember them any longer. */
export function expiredLogouts(state: SessionState, nowSeconds: number): string[] {
  return Object.entries(state.revoked)
    .filter(([, exp]) => exp <= nowSeconds)
    .map(([jti]) => jti)
    .slice(0, 50);
}

/**
 * Logs a token out until it would have expired: one UpdateItem that adds its `jti` and drops the
 * entries already past their expiry (found by the session check of this request), so the map stays as
 * small as the agent's live sessions. Safe under parallel logouts: each adds its own entry only.
 */
export async function revokeToken(store: TableHandle, session: Session): Promise<void> {
  const expired = session.expiredLogouts.filter((jti) => jti !== session.tokenId);
  const names: Record<string, string> = { '#jti': session.tokenId };
  expired.forEach((jti, i) => {
    names[`#old${i}`] = jti;
  });
  const remove = expired.length ? ` REMOVE ${expired.map((_, i) => `revoked.#old${i}`).join(', ')}` : '';
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.sessionState(session.agentId),
      // The map exists from registration on; a token of an agent without state never reaches logout.
      UpdateExpression: `SET revoked.#jti = :exp${remove}`,
      ConditionExpression: 'attribute_exists(revoked)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':exp': session.expiresAt },
    }),
  );
}
