import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, itemAtFailedCondition, type TableHandle } from '../db/client.ts';
import { attributesOf, MalformedItemError } from '../db/stored-item.ts';
import { ttlFromMillis } from '../db/table.ts';
import { MAX_CODE_ATTEMPTS, MAX_SENDS_PER_HOUR, OTP_TTL_SECONDS, RESEND_AFTER_SECONDS } from './otp-code.ts';
import { type Role, roleOf } from './roles.ts';

/**
 * The OTP challenge item of one identifier (`OTP#<identifier>` / `CHALLENGE`), registered or not: the
 * send throttle, the current code and, for a registered agent, the agent's sign-in snapshot live
 * together, so one conditional write both decides the throttle and tells whether a code is to be
 * delivered (docs/decisions.md, "Sign-in").
 */
export const otpChallengeKey = (identifier: string) => ({ pk: `OTP#${identifier}`, sk: 'CHALLENGE' });

interface Challenge {
  challengeId: string;
  codeHash: string;
  expiresAt: number;
  /** Attempts reserved so far, this one included. */
  attempts: number;
  /** Who signs in with it; absent on the decoy challenge of an unknown identifier. */
  agent?: AgentSnapshot;
}

/**
 * The agent as sign-in needs it, kept in the OTP item by every agent change (agency/agent-changes.ts)
 * in the same transaction as the agent's profile.
 */
export interface AgentSnapshot {
  id: string;
  name: string;
  agency_id: string;
  active: boolean;
  /** Absent from snapshots stored before roles were kept in them (verify-otp then reads the state). */
  role?: Role;
}

/**
 * Sends allowed in any rolling hour to an identifier that has never signed in — an agent just
 * registered, and any unknown identifier alike, so the two cannot be told apart: codes to numbers
 * nobody has shown they control stay few. An agent that has signed in once gets MAX_SENDS_PER_HOUR.
 */
const NEW_IDENTIFIER_SENDS_PER_HOUR = 2;

export const HOUR_MS = 3_600_000;

/**
 * Send slots s1 (oldest) … s5 (newest, with MAX_SENDS_PER_HOUR = 5) hold the times of the last sends.
 * A send shifts them; it is allowed when the newest is RESEND_AFTER_SECONDS old and the oldest an hour
 * old: a true rolling hour, decided atomically with no read first.
 */
const slot = (n: number) => `s${n}`;
const OLDEST = slot(1);
const NEWEST = slot(MAX_SENDS_PER_HOUR);
const SLOT_SHIFT = [
  ...Array.from(
    { length: MAX_SENDS_PER_HOUR - 1 },
    (_, i) => `${slot(i + 1)} = if_not_exists(${slot(i + 2)}, :zero)`,
  ),
  `${NEWEST} = :now`,
].join(', ');
const NEW_OLDEST = slot(MAX_SENDS_PER_HOUR - NEW_IDENTIFIER_SENDS_PER_HOUR + 1);
const THROTTLE_CONDITION = `(attribute_not_exists(${NEWEST}) OR ${NEWEST} <= :resendCutoff) AND (attribute_not_exists(${OLDEST}) OR ${OLDEST} <= :hourCutoff) AND (attribute_exists(signedIn) OR attribute_not_exists(${NEW_OLDEST}) OR ${NEW_OLDEST} <= :hourCutoff)`;
/** The attributes of the live code: removed when it is used, voided or the agent deactivated. */
export const CHALLENGE_FIELDS = 'challengeId, codeHash, expiresAt, attempts';

type ReplaceResult =
  | { ok: true; agent: AgentSnapshot | undefined }
  | { ok: false; retryAfterSeconds: number };

/**
 * Records a send and makes `challenge` the identifier's only code, unless the throttle forbids it;
 * answers the agent registered under the identifier, if any. One UpdateItem, whoever asks.
 */
export async function replaceChallenge(
  store: TableHandle,
  identifier: string,
  challenge: { challengeId: string; codeHash: string },
  now: number,
): Promise<ReplaceResult> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: otpChallengeKey(identifier),
        // A registered identifier keeps its item (keepUntil); anyone else's expires with the throttle window.
        UpdateExpression: `SET ${SLOT_SHIFT}, challengeId = :cid, codeHash = :hash, expiresAt = :exp, attempts = :zero, #ttl = if_not_exists(keepUntil, :ttl)`,
        ConditionExpression: THROTTLE_CONDITION,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':now': now,
          ':resendCutoff': now - RESEND_AFTER_SECONDS * 1000,
          ':hourCutoff': now - HOUR_MS,
          ':cid': challenge.challengeId,
          ':hash': challenge.codeHash,
          ':exp': now + OTP_TTL_SECONDS * 1000,
          // The throttle needs the item for an hour; the code inside expires long before.
          ':ttl': ttlFromMillis(now + HOUR_MS),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true, agent: snapshotOf(Attributes?.agent) };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return { ok: false, retryAfterSeconds: retryAfterSeconds(itemAtFailedCondition(error), now) };
  }
}

type ReserveResult = { ok: true; challenge: Challenge } | { ok: false; reason: 'invalid' | 'void' };

/**
 * Reserves one attempt on the live challenge with a conditional increment: however many requests run
 * in parallel, at most MAX_CODE_ATTEMPTS are ever reserved. `void` when they all have been; `invalid`
 * when there is no live code (never sent, expired, used or replaced).
 */
export async function reserveAttempt(
  store: TableHandle,
  identifier: string,
  now: number,
): Promise<ReserveResult> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: otpChallengeKey(identifier),
        UpdateExpression: 'SET attempts = attempts + :one',
        ConditionExpression: 'attribute_exists(codeHash) AND expiresAt > :now AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':max': MAX_CODE_ATTEMPTS },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true, challenge: challengeOf(Attributes ?? {}) };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const old = itemAtFailedCondition(error);
    const live = old?.codeHash !== undefined && Number(old.expiresAt) > now;
    return { ok: false, reason: live && Number(old.attempts) >= MAX_CODE_ATTEMPTS ? 'void' : 'invalid' };
  }
}

/**
 * Removes the code if it is still `challengeId` (keeping the throttle). False when a parallel verify
 * or a newer send got there first: that is what makes a code single use. With `signIn`, the code is
 * consumed for a sign-in: only while the agent is active (a deactivation between verify-otp's read and
 * this write wins), and the identifier is marked as having signed in.
 */
export async function clearChallenge(
  store: TableHandle,
  identifier: string,
  challengeId: string,
  options: { signIn?: boolean } = {},
): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: otpChallengeKey(identifier),
        UpdateExpression: `${options.signIn ? 'SET signedIn = :yes ' : ''}REMOVE ${CHALLENGE_FIELDS}`,
        ConditionExpression: `challengeId = :cid${options.signIn ? ' AND #agent.active = :yes' : ''}`,
        ...(options.signIn && { ExpressionAttributeNames: { '#agent': 'agent' } }),
        ExpressionAttributeValues: { ':cid': challengeId, ...(options.signIn && { ':yes': true }) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Seconds until the throttle lets the next send through, from the slots as they were. */
function retryAfterSeconds(item: Record<string, unknown> | undefined, now: number): number {
  const newest = Number(item?.[NEWEST] ?? 0);
  const oldest = Number(item?.[OLDEST] ?? 0);
  const newOldest = item?.signedIn === undefined ? Number(item?.[NEW_OLDEST] ?? 0) : 0;
  const waits = [newest + RESEND_AFTER_SECONDS * 1000 - now];
  for (const hourAgo of [oldest, newOldest]) if (hourAgo > now - HOUR_MS) waits.push(hourAgo + HOUR_MS - now);
  return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
}

/*
 * Reads are checked field by field, by hand rather than with a zod schema: send-otp and verify-otp run
 * them, and they add nothing to those functions' cold start.
 */

const malformed = () => new MalformedItemError('malformed OTP challenge item');

/** The challenge as the reserving write returned it. */
function challengeOf(item: Record<string, unknown>): Challenge {
  const { challengeId, codeHash, expiresAt, attempts } = item;
  if (
    typeof challengeId !== 'string' ||
    typeof codeHash !== 'string' ||
    typeof expiresAt !== 'number' ||
    typeof attempts !== 'number'
  ) {
    throw malformed();
  }
  const agent = snapshotOf(item.agent);
  return { challengeId, codeHash, expiresAt, attempts, ...(agent && { agent }) };
}

/** The sign-in snapshot as stored; undefined for an identifier nobody registered. */
function snapshotOf(stored: unknown): AgentSnapshot | undefined {
  if (stored === undefined) return undefined;
  const { id, name, agency_id, active, role } = attributesOf(stored) ?? {};
  if (
    typeof id !== 'string' ||
    typeof name !== 'string' ||
    typeof agency_id !== 'string' ||
    typeof active !== 'boolean'
  ) {
    throw malformed();
  }
  return { id, name, agency_id, active, ...(role !== undefined && { role: roleOf(role) }) };
}
