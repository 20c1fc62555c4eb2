import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { cancellationCodes } from './client.ts';
import { type RetryPolicy, retrying, type TRY_AGAIN } from './retry.ts';

/** One item of a TransactWriteItems call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction's items, each under the name of what it does (its slot). */
export interface SlottedTransaction<Slot extends string> {
  readonly items: TransactItem[];
  readonly slots: Slot[];
}

/**
 * A transaction from named items (`undefined` entries are left out): DynamoDB reports why a
 * transaction was cancelled per item, by position, and the slots turn those positions back into names.
 *
 * @example slotted([['profile', { Update: profileWrite }], delta ? ['admins', { Update: countWrite }] : undefined])
 */
export function slotted<Slot extends string>(
  entries: readonly (readonly [Slot, TransactItem] | undefined)[],
): SlottedTransaction<Slot> {
  const present = entries.filter((entry) => entry !== undefined);
  return { items: present.map(([, item]) => item), slots: present.map(([slot]) => slot) };
}

/** Why a transaction was cancelled, read by slot. */
export interface CancellationReasons<Slot extends string> {
  /** Whether an item of `slot` failed its condition. */
  conditionFailed(slot: Slot): boolean;
  /** Whether any item was cancelled for `reason` (`TransactionConflict`, `ThrottlingError`, …). */
  any(reason: string): boolean;
}

/**
 * The reasons a cancelled transaction gives, by slot; undefined for any other error.
 *
 * @example cancellationReasons(error, transaction.slots)?.conditionFailed('offer')
 */
function cancellationReasons<Slot extends string>(
  error: unknown,
  slots: readonly Slot[],
): CancellationReasons<Slot> | undefined {
  const codes = cancellationCodes(error);
  if (!codes) return undefined;
  return {
    conditionFailed: (slot) => slots.some((s, i) => s === slot && codes[i] === 'ConditionalCheckFailed'),
    any: (reason) => codes.includes(reason),
  };
}

/** A transaction of unnamed items: its cancellation is read by reason only (`any`). */
export const unslotted = (items: TransactItem[]): SlottedTransaction<never> => ({ items, slots: [] });

/** What a written transaction answers, and what a cancelled one comes to. */
interface TransactionOutcomes<Slot extends string, T> {
  /** The answer once the transaction is written. */
  readonly written: () => T;
  /**
   * What a cancelled try comes to, from its reasons by slot: an answer (what a re-read finds after a
   * write lost to another), {@link TRY_AGAIN} (another try, with the transaction built afresh), or a
   * throw. Left out, the cancellation is thrown. Any other error is always thrown.
   */
  readonly cancelled?: (
    reasons: CancellationReasons<Slot>,
    error: unknown,
  ) => NoInfer<T> | typeof TRY_AGAIN | Promise<NoInfer<T> | typeof TRY_AGAIN>;
  /** How long to keep trying (db/retry.ts): its default unless said. */
  readonly policy?: RetryPolicy;
}

/**
 * What a try writes: a transaction with named slots, or nothing (what it would change is not there:
 * `written` answers at once).
 */
type Built<Slot extends string> = SlottedTransaction<Slot> | undefined;

/**
 * The one way a transaction is written: `build`'s transaction with named slots (built again for each
 * try, say with a fresh PNR or from a fresh read), retried while `outcomes.cancelled` answers
 * {@link TRY_AGAIN} (a conflict, a lost race), and answered from a re-read when it says so.
 *
 * @example await transact(deps.db, () => slotted(writes), { written: () => view, cancelled: (r) => r.any('TransactionConflict') ? TRY_AGAIN : reread() })
 */
export function transact<Slot extends string, T>(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  build: (tryNumber: number) => Built<Slot> | Promise<Built<Slot>>,
  outcomes: TransactionOutcomes<Slot, T>,
): Promise<T> {
  return retrying(async (tryNumber) => {
    const transaction = await build(tryNumber);
    if (!transaction) return outcomes.written();
    try {
      await db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
    } catch (error) {
      const reasons = cancellationReasons(error, transaction.slots);
      if (!reasons || !outcomes.cancelled) throw error;
      return outcomes.cancelled(reasons, error);
    }
    return outcomes.written();
  }, outcomes.policy);
}
