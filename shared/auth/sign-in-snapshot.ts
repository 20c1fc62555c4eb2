import { ttlFromMillis } from '../db/table.ts';
import { type AgentSnapshot, CHALLENGE_FIELDS, HOUR_MS, otpChallengeKey } from './otp-challenge-item.ts';
import type { Role } from './roles.ts';

/**
 * The agent's sign-in snapshot in its identifier's OTP challenge item (otp-challenge-item.ts owns the
 * item; these are the writes agent changes make to it, in the same transaction as the agent's profile).
 */

/** A registered identifier's OTP item never expires (TTL far beyond any code or throttle window). */
const KEEP_UNTIL = 4_102_444_800; // 2100-01-01

/** The Update that puts a newly registered agent's snapshot in its identifier's OTP item, and keeps the item. */
export function signInSnapshotUpdate(
  tableName: string,
  agent: Required<AgentSnapshot> & { readonly identifier: string },
) {
  const snapshot: Required<AgentSnapshot> = {
    id: agent.id,
    name: agent.name,
    agency_id: agent.agency_id,
    active: agent.active,
    role: agent.role,
  };
  return {
    TableName: tableName,
    Key: otpChallengeKey(agent.identifier),
    UpdateExpression: 'SET #agent = :agent, keepUntil = :keep REMOVE #ttl',
    ExpressionAttributeNames: { '#agent': 'agent', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':agent': snapshot, ':keep': KEEP_UNTIL },
  };
}

/**
 * The Update that mirrors a change into the snapshot, field by field (a parallel change of another
 * field is never undone). Deactivation also voids the pending code, so it cannot be used after a
 * re-activation either.
 */
export function signInSnapshotChange(
  tableName: string,
  identifier: string,
  changes: { readonly name?: string; readonly active?: boolean; readonly role?: Role },
) {
  const sets = [
    ...(changes.name !== undefined ? ['#agent.#name = :name'] : []),
    ...(changes.active !== undefined ? ['#agent.active = :active'] : []),
    ...(changes.role !== undefined ? ['#agent.#role = :role'] : []),
    'keepUntil = :keep',
  ];
  const fieldChanged =
    changes.name !== undefined || changes.active !== undefined || changes.role !== undefined;
  const removes = ['#ttl', ...(changes.active === false ? [CHALLENGE_FIELDS] : [])];
  return {
    TableName: tableName,
    Key: otpChallengeKey(identifier),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
    ExpressionAttributeNames: {
      '#ttl': 'ttl',
      ...(fieldChanged && { '#agent': 'agent' }),
      ...(changes.name !== undefined && { '#name': 'name' }),
      ...(changes.role !== undefined && { '#role': 'role' }),
    },
    ExpressionAttributeValues: {
      ':keep': KEEP_UNTIL,
      ...(changes.name !== undefined && { ':name': changes.name }),
      ...(changes.active !== undefined && { ':active': changes.active }),
      ...(changes.role !== undefined && { ':role': changes.role }),
    },
  };
}

/**
 * The Update that forgets a released agent: no snapshot, no live code, no sign-in mark; the item
 * expires with its throttle window like any unknown identifier's (its send slots stay until then).
 */
export function signInSnapshotRelease(tableName: string, identifier: string, nowMs: number) {
  return {
    TableName: tableName,
    Key: otpChallengeKey(identifier),
    UpdateExpression: `SET #ttl = :ttl REMOVE #agent, keepUntil, signedIn, ${CHALLENGE_FIELDS}`,
    ExpressionAttributeNames: { '#agent': 'agent', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':ttl': ttlFromMillis(nowMs + HOUR_MS) },
  };
}

/**
 * The Update that gives a legacy agent's OTP item its snapshot when it has none (an agent stored
 * before snapshots were kept): field-by-field changes need the map to exist.
 */
export function missingSnapshotUpdate(
  tableName: string,
  agent: Required<AgentSnapshot> & { readonly identifier: string },
) {
  const full = signInSnapshotUpdate(tableName, agent);
  return {
    ...full,
    UpdateExpression: 'SET #agent = if_not_exists(#agent, :agent), keepUntil = :keep REMOVE #ttl',
  };
}
