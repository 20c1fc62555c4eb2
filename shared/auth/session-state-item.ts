import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { attributesOf, MalformedItemError } from '../db/stored-item.ts';
import { type Role, roleOf } from './roles.ts';
import type { Session } from './session.ts';

/**
 * The session state item (`AGENTID#<agent id>` / `SESSION`): the one item an authenticated request
 * reads, enough to answer "is this token still good, and who is it now?" in a single consistent
 * GetItem. Written with the agent's profile whenever the agent changes (agency/agent-changes.ts);
 * logout adds to `revoked`.
 */
export const sessionStateKey = (agentId: string) => ({ pk: `AGENTID#${agentId}`, sk: 'SESSION' });

export interface SessionState {
  agency_id: string;
  /** Mirrored since agents were first stored by id; absent only from a state written before that. */
  identifier?: string;
  name: string;
  role: Role;
  active: boolean;
  /** Tokens issued before this (epoch seconds) are refused: set when the agent is deactivated. */
  valid_after: number;
  /** Logged-out tokens: `jti` → `exp`. Expired entries are dropped by the next logout. */
  revoked: Record<string, number>;
}

/** The agent as its session state mirrors it. */
interface StateOfAgent {
  readonly id: string;
  readonly agency_id: string;
  readonly identifier: string;
  readonly name: string;
  readonly role: Role;
  readonly active: boolean;
}

/** The session state of `agentId`, or undefined when the agent has none (never registered). */
export async function readSessionState(
  store: TableHandle,
  agentId: string,
): Promise<SessionState | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: sessionStateKey(agentId), ConsistentRead: true }),
  );
  return Item ? sessionStateOf(Item) : undefined;
}

/**
 * The state as read, checked field by field. Hand-written rather than a zod schema: every
 * authenticated request runs it, and it adds nothing to a function's cold start.
 */
function sessionStateOf(item: Record<string, unknown>): SessionState {
  const { agency_id, identifier, name = '', role, active, valid_after = 0, revoked = {} } = item;
  const logouts = attributesOf(revoked);
  const revokedUntil: Record<string, number> = {};
  for (const [jti, exp] of Object.entries(logouts ?? {}))
    if (typeof exp === 'number') revokedUntil[jti] = exp;
  const wellFormed =
    typeof agency_id === 'string' &&
    (identifier === undefined || typeof identifier === 'string') &&
    typeof name === 'string' &&
    typeof active === 'boolean' &&
    typeof valid_after === 'number' &&
    logouts !== undefined &&
    Object.keys(revokedUntil).length === Object.keys(logouts).length;
  if (!wellFormed) throw new MalformedItemError('malformed session state item');
  return {
    agency_id,
    ...(identifier !== undefined && { identifier }),
    name,
    role: roleOf(role),
    active,
    valid_after,
    revoked: revokedUntil,
  };
}

/** The identifier an agent id signs in with, through its session state; undefined when there is none. */
export async function readSessionIdentifier(
  store: TableHandle,
  agentId: string,
): Promise<string | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: sessionStateKey(agentId),
      ConsistentRead: true,
      ProjectionExpression: 'identifier',
    }),
  );
  return typeof Item?.identifier === 'string' ? Item.identifier : undefined;
}

const mirrored = (agent: StateOfAgent) => ({
  agency_id: agent.agency_id,
  identifier: agent.identifier,
  name: agent.name,
  role: agent.role,
  active: agent.active,
});

/** The Put of a new agent's state: no token invalidated yet, none logged out; never over an existing one. */
export function newSessionState(tableName: string, agent: StateOfAgent) {
  return {
    TableName: tableName,
    Item: { ...sessionStateKey(agent.id), ...mirrored(agent), valid_after: 0, revoked: {} },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** The fields of an agent a change may set, each only when it is part of the change. */
interface MirroredChanges {
  readonly name?: string;
  readonly role?: Role;
  readonly active?: boolean;
}

/** A condition on a state item, with the names and values it uses (placeholders are its own). */
export interface StateCondition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/**
 * The Update that mirrors a change of an agent into its state, writing only the fields the change
 * sets (a parallel change of another field is never undone); with `validAfter`, every token issued
 * before that second stops working (deactivation). With `condition`, only while it holds.
 */
export function sessionStateUpdate(
  tableName: string,
  agent: Pick<StateOfAgent, 'id' | 'agency_id' | 'identifier'>,
  changes: MirroredChanges,
  validAfter: number | undefined,
  condition?: StateCondition,
) {
  const sets = [
    'agency_id = :agency',
    'identifier = :identifier',
    'revoked = if_not_exists(revoked, :none)',
    ...(changes.name !== undefined ? ['#name = :name'] : []),
    ...(changes.role !== undefined ? ['#role = :role'] : []),
    ...(changes.active !== undefined ? ['active = :active'] : []),
    ...(validAfter !== undefined ? ['valid_after = :after'] : []),
  ];
  return {
    TableName: tableName,
    Key: sessionStateKey(agent.id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ...(condition && { ConditionExpression: condition.expression }),
    ...((changes.name !== undefined || changes.role !== undefined || condition) && {
      ExpressionAttributeNames: {
        ...(changes.name !== undefined && { '#name': 'name' }),
        ...(changes.role !== undefined && { '#role': 'role' }),
        ...condition?.names,
      },
    }),
    ExpressionAttributeValues: {
      ':agency': agent.agency_id,
      ':identifier': agent.identifier,
      ':none': {},
      ...(changes.name !== undefined && { ':name': changes.name }),
      ...(changes.role !== undefined && { ':role': changes.role }),
      ...(changes.active !== undefined && { ':active': changes.active }),
      ...(validAfter !== undefined && { ':after': validAfter }),
      ...condition?.values,
    },
  };
}

/** The Delete of a released agent's state: every token it holds stops working. */
export const sessionStateDelete = (tableName: string, agentId: string) => ({
  TableName: tableName,
  Key: sessionStateKey(agentId),
});

/** The first second whose tokens still work after every earlier one was ended at `nowMs`. */
export const sessionsEndedAt = (nowMs: number) => Math.floor(nowMs / 1000) + 1;

/**
 * Ends every session the agent holds (logout everywhere, the operator's `revoke`): one UpdateItem
 * setting `valid_after`, so every token issued until now is refused from the next request on. False
 * when the agent has no state (never registered, or released).
 */
export async function endEverySession(store: TableHandle, agentId: string, nowMs: number): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionStateKey(agentId),
        UpdateExpression: 'SET valid_after = :after',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':after': sessionsEndedAt(nowMs) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
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
      Key: sessionStateKey(session.agentId),
      // The map exists from registration on; a token of an agent without state never reaches logout.
      UpdateExpression: `SET revoked.#jti = :exp${remove}`,
      ConditionExpression: 'attribute_exists(revoked)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':exp': session.expiresAt },
    }),
  );
}
