import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../../db/client.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';

/**
 * The PENDING listing (`PENDING_BOOKINGS` / `<created_at>#<booking id>`): one item per booking whose
 * remote order's outcome is not known yet, written with the booking and deleted in the same transaction
 * that settles it, so the sweep finds every unsettled booking with one Query and never scans.
 */
const PARTITION = 'PENDING_BOOKINGS';
const pendingKey = (record: { created_at: string; booking_id: string }) => ({
  pk: PARTITION,
  sk: `${record.created_at}#${record.booking_id}`,
});

const PendingItem = itemSchema(() => z.object({ booking_id: z.string(), agency_id: z.string() }));

/** The Put that lists a PENDING booking for the sweep. */
export function newPendingItem(
  tableName: string,
  record: { created_at: string; booking_id: string; agency_id: string },
) {
  return {
    TableName: tableName,
    Item: { ...pendingKey(record), booking_id: record.booking_id, agency_id: record.agency_id },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** The Delete that takes a settled booking off the listing. */
export function pendingRemoval(tableName: string, record: { created_at: string; booking_id: string }) {
  return { TableName: tableName, Key: pendingKey(record) };
}

/** Up to `limit` PENDING bookings, oldest first. */
export async function listPendingBookings(
  store: TableHandle,
  limit: number,
): Promise<{ booking_id: string; agency_id: string }[]> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pending',
      ExpressionAttributeValues: { ':pending': PARTITION },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => parseItem('pending booking', PendingItem(), item));
}
