import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { cancellationCodes } from './client.ts';

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
export function cancellationReasons<Slot extends string>(
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
