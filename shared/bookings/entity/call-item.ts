import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isoSeconds } from '../../clock.ts';
import type { TableHandle } from '../../db/client.ts';
import { parseItem } from '../../db/stored-item.ts';

/**
 * The supplier-calls listing (`SUPPLIER_CALLS` / `<started_at>#<booking id>`): one item per call to a
 * remote supplier that changes a booking — a cancellation, a hold's payment — written before the call's
 * claim, so that a call whose answer is lost (or whose function dies) is always found by the sweep with
 * one Query, never a scan. It is a pointer, not the truth: the booking's own claim says whether a call
 * was left; the sweep deletes a listing whose booking has none.
 */
const PARTITION = 'SUPPLIER_CALLS';
const callKey = (call: { started_at: string; booking_id: string }) => ({
  pk: PARTITION,
  sk: `${call.started_at}#${call.booking_id}`,
});

const CallItem = z.object({ booking_id: z.string(), started_at: z.string() });
export type ListedCall = z.output<typeof CallItem>;

/**
 * Lists a call about to start (a retry in the same second writes the same item again). An UpdateItem
 * upsert rather than a Put: cancel lists calls in duffel mode only, and its grants stay the ones its
 * network path uses (UpdateItem), never a PutItem it could otherwise use on any key.
 */
export async function listCall(store: TableHandle, call: ListedCall): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: callKey(call),
      UpdateExpression: 'SET booking_id = :booking, started_at = :started',
      ExpressionAttributeValues: { ':booking': call.booking_id, ':started': call.started_at },
    }),
  );
}

/** The Delete that takes a finished call off the listing. */
export const callRemoval = (tableName: string, call: ListedCall) => ({
  TableName: tableName,
  Key: callKey(call),
});

export async function unlistCall(store: TableHandle, call: ListedCall): Promise<void> {
  await store.db.send(new DeleteCommand(callRemoval(store.tableName, call)));
}

/** Up to `limit` calls that started before `before` (epoch ms), oldest first. */
export async function listCallsStartedBefore(
  store: TableHandle,
  before: number,
  limit: number,
): Promise<ListedCall[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :calls AND sk < :before',
      ExpressionAttributeValues: { ':calls': PARTITION, ':before': isoSeconds(before) },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => parseItem('supplier call', CallItem, item));
}
