import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { open, seal } from '../aead.ts';
import { webhookCountChange } from '../agency/agency-counters-item.ts';
import { decodeCanonicalBase64url } from '../base64url.ts';
import type { TableHandle } from '../db/client.ts';
import { parseItem } from '../db/stored-item.ts';
import { agencyPartition } from '../db/table.ts';
import { EVENT_TYPES } from './booking-event.ts';

/**
 * The webhook endpoint item (`AGENCY#<agency_id>` / `WEBHOOK#<webhook id>`): the URL, the events it
 * takes, its signing secret sealed (AES-256-GCM under the key derived for it, bound to the endpoint)
 * and its last delivery. Under the agency's partition, so listing is one Query and another agency's
 * endpoint is simply not there.
 */
const webhookKey = (agencyId: string, webhookId: string) => ({
  pk: agencyPartition(agencyId),
  sk: `WEBHOOK#${webhookId}`,
});

/** The condition that the endpoint is still there, for a transaction that acts on it (a ping). */
export const webhookExists = (tableName: string, agencyId: string, webhookId: string) => ({
  TableName: tableName,
  Key: webhookKey(agencyId, webhookId),
  ConditionExpression: 'attribute_exists(pk)',
});

/** At most this many endpoints per agency (docs/API.md §4.6). */
export const MAX_WEBHOOKS_PER_AGENCY = 5;

export const WEBHOOK_ID_PATTERN = 'whk_[0-9a-f]{24}';
export const newWebhookId = () => `whk_${randomBytes(12).toString('hex')}`;

/** `whsec_` + base64 of 32 random bytes: the form Standard Webhooks libraries take. */
export function newWebhookSecret(): { text: string; bytes: Buffer } {
  const bytes = randomBytes(32);
  return { text: `whsec_${bytes.toString('base64')}`, bytes };
}

const LastDelivery = z.object({
  at: z.string(),
  event_id: z.string(),
  outcome: z.enum(['delivered', 'failed', 'retrying']),
  http_status: z.optional(z.int()),
});
export type LastDelivery = z.output<typeof LastDelivery>;

const WebhookItem = z.object({
  id: z.string(),
  agency_id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  active: z.boolean(),
  created_at: z.string(),
  created_by: z.optional(z.object({ id: z.string(), name: z.string() })),
  /** base64url of the sealed secret bytes. */
  secret_sealed: z.string(),
  last_delivery: z.optional(LastDelivery),
});
export type Webhook = z.output<typeof WebhookItem>;

const sealContext = (agencyId: string, webhookId: string) => `webhook:${agencyId}:${webhookId}`;

/** The secret sealed for storage in the endpoint's item. */
export const sealSecret = (key: Uint8Array, agencyId: string, webhookId: string, bytes: Buffer) =>
  seal(key, bytes, sealContext(agencyId, webhookId)).toString('base64url');

/** The endpoint's secret bytes (what signatures are keyed with); undefined if the item was tampered with. */
export function openSecret(key: Uint8Array, webhook: Webhook): Buffer | undefined {
  const raw = decodeCanonicalBase64url(webhook.secret_sealed);
  return raw && open(key, raw, sealContext(webhook.agency_id, webhook.id));
}

/** The new endpoint and the agency's endpoint count, for one transaction (the cap holds under races). */
export function newWebhookItems(tableName: string, webhook: Webhook) {
  return {
    endpoint: {
      Put: {
        TableName: tableName,
        Item: { ...webhookKey(webhook.agency_id, webhook.id), ...webhook },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    count: { Update: webhookCountChange(tableName, webhook.agency_id, +1, MAX_WEBHOOKS_PER_AGENCY) },
  };
}

/** The endpoint's removal and the count's decrease; the Delete fails its condition if there is none. */
export function deleteWebhookItems(tableName: string, agencyId: string, webhookId: string) {
  return {
    endpoint: {
      Delete: {
        TableName: tableName,
        Key: webhookKey(agencyId, webhookId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    count: { Update: webhookCountChange(tableName, agencyId, -1, MAX_WEBHOOKS_PER_AGENCY) },
  };
}

/** Every endpoint of an agency (at most five: one page). */
export async function listAgencyWebhooks(store: TableHandle, agencyId: string): Promise<Webhook[]> {
  const { Items } = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :agency AND begins_with(sk, :webhook)',
      ExpressionAttributeValues: { ':agency': agencyPartition(agencyId), ':webhook': 'WEBHOOK#' },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => parseItem('webhook endpoint', WebhookItem, item));
}

/** One endpoint, read at delivery time (it may have been deleted since the event). */
export async function findWebhook(
  store: TableHandle,
  agencyId: string,
  webhookId: string,
): Promise<Webhook | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: webhookKey(agencyId, webhookId),
      ConsistentRead: true,
    }),
  );
  return Item && parseItem('webhook endpoint', WebhookItem, Item);
}

/**
 * Records a delivery's outcome on its endpoint, unless the endpoint is gone or already shows a later
 * attempt (deliveries of several events finish in any order).
 */
export async function recordLastDelivery(
  store: TableHandle,
  agencyId: string,
  webhookId: string,
  last: LastDelivery,
): Promise<void> {
  await store.db
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: webhookKey(agencyId, webhookId),
        UpdateExpression: 'SET last_delivery = :last',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(last_delivery) OR last_delivery.#at <= :at)',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':last': last, ':at': last.at },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}
