import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import { agencyPartition, ttlFromMillis } from '../db/table.ts';

/**
 * The ping limits' items (docs/API.md §4.6), kept apart from the endpoints so that deleting an
 * endpoint and creating it again resets neither limit: the agency's (`AGENCY#<agency>` / `PINGS`) and
 * one per endpoint URL of the agency (`AGENCY#<agency>` / `PINGS#<SHA-256 of the URL>`), which an
 * endpoint created again with the same URL finds as it was left. Each holds slots `ping_0`, `ping_1`,
 * … each the time of the ping that took it: a ping takes a slot that is empty or an hour old, written
 * on that condition, so a slot serves at most one ping in any hour (a sliding window, exact under
 * races). An item expires an hour after its last ping, when every slot is free anyway.
 */
const HOUR_MS = 3_600_000;

type PingsKey = { pk: string; sk: string };

/** The agency's limit: every ping of any of its endpoints. */
export const agencyPingsKey = (agencyId: string): PingsKey => ({
  pk: agencyPartition(agencyId),
  sk: 'PINGS',
});

/**
 * An endpoint's limit, by its URL (as the WHATWG parser writes it, so `HTTPS://Host:443/x` is
 * `https://host/x`) within the agency: the endpoint's id changes when it is created again, its URL
 * is what receives the pings.
 */
export function endpointPingsKey(agencyId: string, url: string): PingsKey {
  let normal = url;
  try {
    normal = new URL(url).href;
  } catch {
    // A stored URL was checked when created; as stored, it still names one limit.
  }
  const digest = createHash('sha256').update(normal).digest('base64url');
  return { pk: agencyPartition(agencyId), sk: `PINGS#${digest}` };
}

const slotNames = (slots: number) => Array.from({ length: slots }, (_, i) => `ping_${i}`);

/** The times stored in a limit's slots (none for a limit never used, or expired). */
export async function readPingSlots(store: TableHandle, key: PingsKey): Promise<Record<string, unknown>> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }),
  );
  return Item ?? {};
}

/**
 * A free slot of a limit of `slots` (empty or an hour old), picked at random among the free ones so
 * that racing pings mostly take different ones; or, when all are taken, how long until the oldest
 * is an hour old.
 */
export function freeSlot(
  stored: Record<string, unknown>,
  slots: number,
  now: number,
): { slot: string } | { retryAfterMs: number } {
  const names = slotNames(slots);
  const taken = (slot: string) => (typeof stored[slot] === 'number' ? (stored[slot] as number) : 0);
  const free = names.filter((slot) => taken(slot) <= now - HOUR_MS);
  const slot = free[Math.floor(Math.random() * free.length)];
  if (slot !== undefined) return { slot };
  return { retryAfterMs: Math.min(...names.map(taken)) + HOUR_MS - now };
}

/** The Update taking `slot` of the limit at `key` at `now`, on the condition that it is still free. */
export function takeSlot(tableName: string, key: PingsKey, slot: string, now: number) {
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET #slot = :now, #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(#slot) OR #slot <= :hourAgo',
      ExpressionAttributeNames: { '#slot': slot, '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':now': now,
        ':hourAgo': now - HOUR_MS,
        ':ttl': ttlFromMillis(now + HOUR_MS),
      },
    },
  };
}
