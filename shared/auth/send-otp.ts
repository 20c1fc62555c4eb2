import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Clock } from '../clock.ts';
import { isConditionFailed, itemAtFailedCondition } from '../db/client.ts';
import { keys, ttlFromMillis } from '../db/table.ts';
import type { ApiRequest, Reply } from '../http/api-event.ts';
import { RateLimitedError, ServiceUnavailableError } from '../http/errors.ts';
import type { Logger } from '../log.ts';
import type { CodeSender } from '../notify/code-sender.ts';
import { type AgentStore, findAgent } from './agents.ts';
import { normalizeIdentifier } from './identifier.ts';
import { generateCode, hashCode, OTP_TTL_SECONDS, RESEND_AFTER_SECONDS } from './otp-code.ts';

export const SendOtpRequest = z
  .object({
    identifier: z.string().max(1024),
    type: z.enum(['EMAIL', 'PHONE', 'SMS']),
  })
  .transform((body, ctx) => {
    const type = body.type === 'SMS' ? 'PHONE' : body.type;
    const result = normalizeIdentifier(body.identifier, type);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: result.message, input: body.identifier });
      return z.NEVER;
    }
    return { identifier: result.identifier, type: result.type };
  });

export interface SendOtpDeps extends AgentStore {
  readonly clock: Clock;
  readonly keys: { readonly otp: Uint8Array };
  readonly sender: CodeSender;
  readonly log: Logger;
  /** The answer never comes sooner than this, registered identifier or not. */
  readonly minResponseMs: number;
}

const HOUR_MS = 3_600_000;

/**
 * The send slots s1 (oldest) … s5 (newest) hold the times of the last five (MAX_SENDS_PER_HOUR) sends. One conditional
 * update shifts them and stores the new challenge, so the 30-second spacing, the rolling five-per-hour
 * limit and the code replacement are decided atomically, with no read first.
 */
const SLOT_SHIFT =
  's1 = if_not_exists(s2, :zero), s2 = if_not_exists(s3, :zero), s3 = if_not_exists(s4, :zero), s4 = if_not_exists(s5, :zero), s5 = :now';
const THROTTLE_CONDITION =
  '(attribute_not_exists(s5) OR s5 <= :resendCutoff) AND (attribute_not_exists(s1) OR s1 <= :hourCutoff)';

/**
 * `POST /api/auth/send-otp`. Registered and unknown identifiers take the same path (one read, one
 * conditional write, a fresh challenge) and answer alike after the same minimum time; only a
 * registered, active agent's code is delivered. An unknown identifier gets a decoy challenge that
 * nobody knows the code of, so verify-otp behaves identically for it too.
 */
export function sendOtp(deps: SendOtpDeps) {
  return async (request: ApiRequest<z.output<typeof SendOtpRequest>>): Promise<Reply> => {
    const started = performance.now();
    try {
      await issueChallenge(request.body, deps);
      return { status: 202, data: { expires_in: OTP_TTL_SECONDS, resend_after: RESEND_AFTER_SECONDS } };
    } finally {
      const elapsed = performance.now() - started;
      if (elapsed < deps.minResponseMs) await sleep(deps.minResponseMs - elapsed);
      else deps.log.warn('send-otp exceeded its minimum response time', { elapsed_ms: Math.round(elapsed) });
    }
  };
}

async function issueChallenge(input: { identifier: string; type: 'EMAIL' | 'PHONE' }, deps: SendOtpDeps) {
  const { identifier } = input;
  const agent = await findAgent(deps, identifier);
  const deliver = agent?.active === true;
  const now = deps.clock.now();
  const challengeId = randomBytes(12).toString('base64url');
  const code = generateCode();
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.otpChallenge(identifier),
        UpdateExpression: `SET ${SLOT_SHIFT}, challengeId = :cid, codeHash = :hash, expiresAt = :exp, attempts = :zero, #ttl = :ttl${deliver ? ', #agent = :agent' : ' REMOVE #agent'}`,
        ConditionExpression: THROTTLE_CONDITION,
        ExpressionAttributeNames: { '#ttl': 'ttl', '#agent': 'agent' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':now': now,
          ':resendCutoff': now - RESEND_AFTER_SECONDS * 1000,
          ':hourCutoff': now - HOUR_MS,
          ':cid': challengeId,
          ':hash': hashCode(deps.keys.otp, { identifier, challengeId }, code),
          ':exp': now + OTP_TTL_SECONDS * 1000,
          ':ttl': ttlFromMillis(now + HOUR_MS),
          ...(deliver && { ':agent': { id: agent.id, name: agent.name, agency_id: agent.agency_id } }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (isConditionFailed(error))
      throw new RateLimitedError(retryAfterSeconds(itemAtFailedCondition(error), now));
    throw error;
  }
  if (!deliver) return;

  try {
    await deps.sender.send({ channel: input.type === 'EMAIL' ? 'EMAIL' : 'SMS', to: identifier, code });
  } catch (error) {
    deps.log.warn('code delivery failed', { error_name: (error as Error)?.name });
    await voidChallenge(deps, identifier, challengeId);
    // The send slot stays spent: a failing provider must not become a way to multiply sends.
    throw new ServiceUnavailableError(RESEND_AFTER_SECONDS);
  }
}

/** Removes a code that was never delivered, unless a newer send has replaced it meanwhile. */
async function voidChallenge(deps: SendOtpDeps, identifier: string, challengeId: string): Promise<void> {
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.otpChallenge(identifier),
        UpdateExpression: 'REMOVE challengeId, codeHash, expiresAt, attempts, #agent',
        ConditionExpression: 'challengeId = :cid',
        ExpressionAttributeNames: { '#agent': 'agent' },
        ExpressionAttributeValues: { ':cid': challengeId },
      }),
    );
  } catch (error) {
    // Best effort: an undelivered code is unknown to everyone and expires within five minutes anyway.
    if (!isConditionFailed(error))
      deps.log.warn('voiding an undelivered code failed', { error_name: (error as Error)?.name });
  }
}

/** Seconds until the throttle would let the next send through, from the slots as they were. */
function retryAfterSeconds(item: Record<string, unknown> | undefined, now: number): number {
  const newest = Number(item?.s5 ?? 0);
  const oldest = Number(item?.s1 ?? 0);
  const waits = [newest + RESEND_AFTER_SECONDS * 1000 - now];
  if (oldest > now - HOUR_MS) waits.push(oldest + HOUR_MS - now);
  return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
}
