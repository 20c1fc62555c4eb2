import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isConditionFailed, itemAtFailedCondition, type TableHandle } from '../../db/client.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';
import { ERROR_STATUS, type ErrorCode } from '../../error-codes.ts';
import { ApiError, IdempotencyInProgressError, IdempotencyKeyReusedError } from '../../errors.ts';

/**
 * The idempotency record (`IDEMPOTENCY#<agent id>#<key>` / `REQUEST`) of one Idempotency-Key: the
 * body's fingerprint, IN_PROGRESS under a lock or COMPLETED with the answer given, kept 24 hours.
 */
export const idempotencyRecordKey = (agentId: string, key: string) => ({
  pk: `IDEMPOTENCY#${agentId}#${key}`,
  sk: 'REQUEST',
});

/** Keys and their outcomes are kept this long (docs/API.md §4.2). */
const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** A request that holds a key longer than this (it crashed) no longer blocks its retries. */
const LOCK_SECONDS = 30;

const ErrorDetail = () =>
  z.object({
    path: z.optional(z.string()),
    message: z.optional(z.string()),
    expected: z.optional(z.unknown()),
    received: z.optional(z.unknown()),
  });
const Outcome = itemSchema(() =>
  z.object({
    status: z.number(),
    /** The success `data` (checked by the route that replays it). */
    data: z.optional(z.unknown()),
    error: z.optional(
      z.object({
        code: z.custom<ErrorCode>((code) => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code)),
        message: z.string(),
        details: z.optional(z.union([z.array(ErrorDetail()), z.record(z.string(), z.unknown())])),
      }),
    ),
  }),
);

/** What a finished request answered, kept under its key: the success `data`, or the error. */
export type StoredOutcome = z.output<ReturnType<typeof Outcome>>;

export interface IdempotencyLock {
  readonly agentId: string;
  readonly key: string;
  readonly lockId: string;
}

/** A fingerprint of the validated request body: key order and ignored fields do not matter. */
export function requestFingerprint(body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('base64url');
}

type Begun = { kind: 'new'; lock: IdempotencyLock } | { kind: 'replay'; outcome: StoredOutcome };

/**
 * Claims `key` for this request with one conditional write. Answers `replay` when the same body
 * already finished, 422 when the key came with another body, 409 while the first is still running.
 * A claim left by a request that died (lock older than LOCK_SECONDS) is taken over.
 */
async function beginIdempotent(
  store: TableHandle,
  request: { agentId: string; key: string; fingerprint: string; now: number },
): Promise<Begun> {
  const lockId = randomBytes(12).toString('base64url');
  const nowSeconds = Math.floor(request.now / 1000);
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...idempotencyRecordKey(request.agentId, request.key),
          state: 'IN_PROGRESS',
          fingerprint: request.fingerprint,
          lockId,
          lockExpiresAt: request.now + LOCK_SECONDS * 1000,
          ttl: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :nowSeconds OR (#state = :inProgress AND lockExpiresAt < :now AND fingerprint = :fingerprint)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: {
          ':nowSeconds': nowSeconds,
          ':now': request.now,
          ':inProgress': 'IN_PROGRESS',
          ':fingerprint': request.fingerprint,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'new', lock: { agentId: request.agentId, key: request.key, lockId } };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const old = itemAtFailedCondition(error);
    if (old?.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedError();
    if (old.state === 'COMPLETED' && typeof old.outcome === 'string') {
      return {
        kind: 'replay',
        outcome: parseItem('idempotency outcome', Outcome(), JSON.parse(old.outcome)),
      };
    }
    throw new IdempotencyInProgressError();
  }
}

/** The write that records `outcome` under the lock: inside the booking transaction, or alone. */
export const completionUpdate = (tableName: string, lock: IdempotencyLock, outcome: StoredOutcome) =>
  outcomeWrite(
    tableName,
    lock,
    outcome,
    'SET #state = :completed, outcome = :outcome REMOVE lockId, lockExpiresAt',
    'lockId = :lockId',
    { ':lockId': lock.lockId },
  );

/**
 * Settles a request that ended without its transaction: a definite answer (4xx) is kept for
 * replays; after a failure (5xx) the key is released so a retry can run. Best effort: an unsettled
 * lock simply expires after LOCK_SECONDS.
 */
async function settleIdempotent(
  store: TableHandle,
  lock: IdempotencyLock,
  outcome: StoredOutcome | undefined,
) {
  try {
    if (outcome) {
      await store.db.send(new UpdateCommand(completionUpdate(store.tableName, lock, outcome)));
    } else {
      await store.db.send(
        new DeleteCommand({
          TableName: store.tableName,
          Key: idempotencyRecordKey(lock.agentId, lock.key),
          ConditionExpression: 'lockId = :lockId',
          ExpressionAttributeValues: { ':lockId': lock.lockId },
        }),
      );
    }
  } catch {
    // The lock expires by itself; nothing was booked, so a later retry runs afresh.
  }
}

/**
 * Releases a key whose request stored an answer and then took it back (a PENDING booking with no order,
 * after a failure): no lock is left to check, so a retry runs afresh.
 */
export async function releaseAnsweredKey(store: TableHandle, lock: IdempotencyLock): Promise<void> {
  await store.db.send(
    new DeleteCommand({ TableName: store.tableName, Key: idempotencyRecordKey(lock.agentId, lock.key) }),
  );
}

/** What a request that ended in `error` leaves under its key: definite client answers only. */
export function storableOutcome(error: unknown): StoredOutcome | undefined {
  if (!(error instanceof ApiError) || error.statusCode >= 500 || error.code === 'IDEMPOTENCY_IN_PROGRESS')
    return undefined;
  return {
    status: error.statusCode,
    error: { code: error.code, message: error.message, details: error.details },
  };
}

/**
 * The write that replaces a completed key's answer once a booking it answered as PENDING is settled
 * by the same request: a retry then gets the settled answer.
 */
export const replacedOutcomeUpdate = (tableName: string, lock: IdempotencyLock, outcome: StoredOutcome) =>
  outcomeWrite(tableName, lock, outcome, 'SET outcome = :outcome', '#state = :completed', {});

function outcomeWrite(
  tableName: string,
  lock: IdempotencyLock,
  outcome: StoredOutcome,
  update: string,
  condition: string,
  values: Record<string, string>,
) {
  return {
    TableName: tableName,
    Key: idempotencyRecordKey(lock.agentId, lock.key),
    UpdateExpression: update,
    ConditionExpression: condition,
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':completed': 'COMPLETED', ':outcome': JSON.stringify(outcome), ...values },
  };
}

/**
 * Runs `act` once per Idempotency-Key (docs/API.md §4.2): without a key it simply runs; with one, the
 * key is claimed for the agent first, a completed request with the same body is answered again through
 * `replay`, and a refusal `act` throws is stored for replays too (a 5xx releases the key). `act` stores
 * its success itself, in the same write that acts (completionUpdate), so a crash cannot split them.
 *
 * @example await idempotently(deps, { agentId, key, body, now }, (lock) => book(lock), (outcome) => replay(outcome))
 */
export async function idempotently<T>(
  store: TableHandle,
  request: { agentId: string; key: string | undefined; body: unknown; now: number },
  act: (lock: IdempotencyLock | undefined) => Promise<T>,
  replay: (outcome: StoredOutcome) => Promise<T>,
): Promise<T> {
  if (!request.key) return act(undefined);
  const begun = await beginIdempotent(store, {
    agentId: request.agentId,
    key: request.key,
    fingerprint: requestFingerprint(request.body),
    now: request.now,
  });
  if (begun.kind === 'replay') return replay(begun.outcome);
  try {
    return await act(begun.lock);
  } catch (error) {
    await settleIdempotent(store, begun.lock, storableOutcome(error));
    throw error;
  }
}

/** An outcome stored under an Idempotency-Key, answered again as it was. */
export class ReplayedError extends ApiError {
  readonly code: ErrorCode;
  constructor(stored: {
    code: ErrorCode;
    message: string;
    details?: ApiError['details'];
  }) {
    super(stored.message, { details: stored.details, headers: { 'Idempotent-Replayed': 'true' } });
    this.code = stored.code;
  }
}
