import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, itemAtFailedCondition, type TableHandle } from '../db/client.ts';
import { keys, ttlFromMillis } from '../db/table.ts';
import { MAX_ATTEMPTS, OTP_TTL_SECONDS, RESEND_AFTER_SECONDS } from './otp-code.ts';

/**
 * The OTP item of one identifier (`OTP#<identifier>` / `CHALLENGE`), registered or not: the send
 * throttle, the current code and, for a registered agent, a snapshot of the agent live together, so
 * one conditional write both decides the throttle and tells whether a code is to be delivered.
 */
export interface Challenge {
  challengeId: string;
  codeHash: string;
  expiresAt: number;
  /** Attempts reserved so far, this one included. */
  attempts: number;
  /** Who signs in with it; absent on the decoy challenge of an unknown identifier. */
  agent?: AgentSnapshot;
}

/** The agent as sign-in needs it, kept in the OTP item by registration (agents.ts). */
export interface AgentSnapshot {
  id: string;
  name: string;
  agency_id: string;
  active: boolean;
}

/** A registered identifier's OTP item never expires (TTL far beyond any code or throttle window). */
const KEEP_UNTIL = 4_102_444_800; // 2100-01-01

const HOUR_MS = 3_600_000;

/**
 * Slots s1 (oldest) … s5 (newest) hold the times of the last five sends (MAX_SENDS_PER_HOUR). A send
 * shifts them; it is allowed when the newest is 30 s old and the oldest an hour old: a true rolling
 * hour, decided atomically with no read first.
 */
const SLOT_SHIFT =
  's1 = if_not_exists(s2, :zero), s2 = if_not_exists(s3, :zero), s3 = if_not_exists(s4, :zero), s4 = if_not_exists(s5, :zero), s5 = :now';
const THROTTLE_CONDITION =
  '(attribute_not_exists(s5) OR s5 <= :resendCutoff) AND (attribute_not_exists(s1) OR s1 <= :hourCutoff)';
const CHALLENGE_FIELDS = 'challengeId, codeHash, expiresAt, attempts';

export type ReplaceResult =
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
        Key: keys.otpChallenge(identifier),
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
    return { ok: true, agent: Attributes?.agent as AgentSnapshot | undefined };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return { ok: false, retryAfterSeconds: retryAfterSeconds(itemAtFailedCondition(error), now) };
  }
}

export type ReserveResult = { ok: true; challenge: Challenge } | { ok: false; reason: 'invalid' | 'void' };

/**
 * Reserves one attempt on the live challenge with a conditional increment: however many requests run
 * in parallel, at most MAX_ATTEMPTS are ever reserved. `void` when they all have been; `invalid` when
 * there is no live code (never sent, expired, used or replaced).
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
        Key: keys.otpChallenge(identifier),
        UpdateExpression: 'SET attempts = attempts + :one',
        ConditionExpression: 'attribute_exists(codeHash) AND expiresAt > :now AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':max': MAX_ATTEMPTS },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true, challenge: Attributes as Challenge };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const old = itemAtFailedCondition(error);
    const live = old?.codeHash !== undefined && Number(old.expiresAt) > now;
    return { ok: false, reason: live && Number(old.attempts) >= MAX_ATTEMPTS ? 'void' : 'invalid' };
  }
}

/**
 * Removes the code if it is still `challengeId` (keeping the throttle). False when a parallel verify
 * or a newer send got there first: that is what makes a code single use.
 */
export async function clearChallenge(
  store: TableHandle,
  identifier: string,
  challengeId: string,
): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.otpChallenge(identifier),
        UpdateExpression: `REMOVE ${CHALLENGE_FIELDS}`,
        ConditionExpression: 'challengeId = :cid',
        ExpressionAttributeValues: { ':cid': challengeId },
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
  const newest = Number(item?.s5 ?? 0);
  const oldest = Number(item?.s1 ?? 0);
  const waits = [newest + RESEND_AFTER_SECONDS * 1000 - now];
  if (oldest > now - HOUR_MS) waits.push(oldest + HOUR_MS - now);
  return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
}

/**
 * The write that keeps an agent's snapshot in its identifier's OTP item (registration and
 * activation changes run it in the same transaction as the agent's profile).
 */
export function agentSnapshotUpdate(tableName: string, identifier: string, agent: AgentSnapshot) {
  return {
    TableName: tableName,
    Key: keys.otpChallenge(identifier),
    UpdateExpression: 'SET #agent = :agent, keepUntil = :keep REMOVE #ttl',
    ExpressionAttributeNames: { '#agent': 'agent', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':agent': agent, ':keep': KEEP_UNTIL },
  };
}
