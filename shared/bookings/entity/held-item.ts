import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isoSeconds } from '../../clock.ts';
import type { TableHandle } from '../../db/client.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';

/**
 * The holds listing (`HELD_BOOKINGS` / `<payment_required_by>#<booking id>`): one item per HELD
 * booking, sorted by deadline, written with the hold and deleted in the same transaction that confirms,
 * cancels or expires it, so the sweep finds every late hold with one Query from the oldest deadline
 * and never scans.
 */
const PARTITION = 'HELD_BOOKINGS';
const heldKey = (hold: { payment_required_by: string; booking_id: string }) => ({
  pk: PARTITION,
  sk: `${hold.payment_required_by}#${hold.booking_id}`,
});

const HeldItem = itemSchema(() =>
  z.object({ booking_id: z.string(), agency_id: z.string(), payment_required_by: z.string() }),
);

/** The Put that lists a new hold under its deadline. */
export function newHeldItem(
  tableName: string,
  hold: { payment_required_by: string; booking_id: string; agency_id: string },
) {
  return {
    TableName: tableName,
    Item: {
      ...heldKey(hold),
      booking_id: hold.booking_id,
      agency_id: hold.agency_id,
      payment_required_by: hold.payment_required_by,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * The Delete that takes a hold off the listing when it stops being HELD (a booking without a deadline
 * was never listed: its removal deletes nothing).
 */
export function heldRemoval(
  tableName: string,
  hold: { payment_required_by?: string | undefined; booking_id: string },
) {
  return {
    TableName: tableName,
    Key: heldKey({ booking_id: hold.booking_id, payment_required_by: hold.payment_required_by ?? '' }),
  };
}

/** Up to `limit` holds whose deadline is `now` or earlier, oldest deadline first. */
export async function listLateHolds(
  store: TableHandle,
  now: number,
  limit: number,
): Promise<{ booking_id: string; agency_id: string; payment_required_by: string }[]> {
  // Deadlines are whole seconds: every key of a deadline at or before `now` sorts before the next second.
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :held AND sk < :next',
      ExpressionAttributeValues: { ':held': PARTITION, ':next': isoSeconds(now + 1000) },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => parseItem('held booking', HeldItem(), item));
}
