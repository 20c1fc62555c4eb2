import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isoSeconds } from '../../clock.ts';
import type { TableHandle } from '../../db/client.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';
import { GSI1 } from '../../db/table.ts';

/**
 * The holds listing (`HELD_BOOKINGS` / `<payment_required_by>#<booking id>`): one item per HELD
 * booking, sorted by deadline, written with the hold and deleted in the same transaction that confirms,
 * cancels or expires it, so the sweep finds every late hold with one Query from the oldest deadline
 * and never scans.
 *
 * Each item is also listed in GSI1 under its agency's holds (`AGENCY_HOLDS#<agency id>` /
 * `<payment_required_by>#<booking id>`): `booking/list` with `sort: "deadline"` reads an agency's holds
 * soonest deadline first from there (agency-listing.ts), and a hold leaves it as it leaves the listing.
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
      gsi1pk: agencyHolds(hold.agency_id),
      gsi1sk: heldKey(hold).sk,
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

/** An agency's holds in GSI1 (listed by deadline). */
const agencyHolds = (agencyId: string) => `AGENCY_HOLDS#${agencyId}`;

/**
 * One Query of `agencyId`'s holds in GSI1, soonest deadline first, from just after `after` (a
 * `<deadline>#<booking id>` position, or any text that sorts before the first wanted), `read` items at
 * most: the booking ids in order, and the position to go on from (undefined at the end).
 */
export async function queryAgencyHolds(
  store: TableHandle,
  agencyId: string,
  query: { after: string; read: number },
): Promise<{ bookingIds: string[]; next: string | undefined }> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :holds AND gsi1sk > :after',
      ExpressionAttributeValues: { ':holds': agencyHolds(agencyId), ':after': query.after },
      Limit: query.read,
    }),
  );
  const items = (result.Items ?? []).map((item) => parseItem('held booking', HeldItem(), item));
  const last = result.LastEvaluatedKey?.gsi1sk;
  return {
    bookingIds: items.map((item) => item.booking_id),
    next: typeof last === 'string' ? last : undefined,
  };
}
