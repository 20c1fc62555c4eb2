import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isConditionFailed, itemAtFailedCondition, type TableHandle } from '../db/client.ts';
import { parseItem } from '../db/stored-item.ts';
import { eventPartition, ttlFromMillis } from '../db/table.ts';
import { EVENT_TYPES } from './booking-event.ts';

/**
 * The delivery item (`EVENT#<event id>` / `DELIVERY#<webhook id>`): one per (event, endpoint). It holds
 * what is sent (type, timestamp, the Booking as of the event) so every retry sends the same body, and
 * which attempt is due. Queue messages name an attempt; an attempt is claimed with a conditional update
 * before it is made, so a duplicated message (a redelivered stream record, SQS's at-least-once) makes no
 * second attempt.
 */
export const deliveryKey = (eventId: string, webhookId: string) => ({
  pk: eventPartition(eventId),
  sk: `DELIVERY#${webhookId}`,
});

/** Longer than one attempt (10 s) with the writes around it; a claim older than this crashed. */
export const DELIVERY_LEASE_MS = 60_000;
/** Kept a week past its last change: long enough to investigate, and past every redelivery. */
const KEEP_MS = 7 * 86_400_000;

const DeliveryItem = z.object({
  event_id: z.string(),
  webhook_id: z.string(),
  agency_id: z.string(),
  /** A booking event's type, or `webhook.ping` (ping.ts). */
  type: z.enum([...EVENT_TYPES, 'webhook.ping']),
  /** The Standard Webhooks body's `timestamp` and `data`, fixed when the event happened. */
  occurred_at: z.string(),
  data: z.record(z.string(), z.unknown()),
  /** The attempt due (1, 2, …), and when the first was due (retries stop 24 h after it). */
  attempt: z.int(),
  first_at: z.number(),
  /** When the attempt due is due (epoch ms). */
  due_at: z.number(),
  state: z.enum(['pending', 'sending', 'delivered', 'failed']),
  lease_until: z.optional(z.number()),
});
export type Delivery = z.output<typeof DeliveryItem>;

/** What a delivery queue message carries: which attempt of which delivery, and not before when. */
export const DeliveryMessage = z.object({
  event_id: z.string(),
  webhook_id: z.string(),
  attempt: z.int(),
  /** Epoch ms the attempt is due; a message that arrives earlier (SQS delays stop at 15 minutes) waits again. */
  due_at: z.number(),
});
export type DeliveryMessage = z.output<typeof DeliveryMessage>;

/**
 * Records a new delivery, attempt 1 due now. Returns whether it is new or still waiting for its first
 * attempt (the caller enqueues that attempt: a redelivered record re-enqueues a message that may have
 * been lost, and the claim drops the duplicate); false when it has moved on.
 */
export async function createDelivery(
  store: TableHandle,
  delivery: Omit<Delivery, 'attempt' | 'state' | 'lease_until' | 'due_at'>,
): Promise<boolean> {
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...deliveryKey(delivery.event_id, delivery.webhook_id),
          ...delivery,
          attempt: 1,
          due_at: delivery.first_at,
          state: 'pending',
          ttl: ttlFromMillis(delivery.first_at + KEEP_MS),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const existing = itemAtFailedCondition(error);
    return existing?.attempt === 1 && existing.state === 'pending';
  }
}

/**
 * What claiming an attempt came to: `claimed` (make it now); `busy` (a live claim holds it: try the
 * message again later); `behind` (the message's attempt is done and the next one is due: its message
 * may have been lost, so enqueue `next` again, a duplicate being harmless); `stale` (drop it).
 */
type AttemptClaim =
  | { readonly kind: 'claimed'; readonly delivery: Delivery }
  | { readonly kind: 'busy' }
  | { readonly kind: 'behind'; readonly next: DeliveryMessage }
  | { readonly kind: 'stale' };

/**
 * Claims attempt `message.attempt` of a delivery: it must be the attempt due, not already made, and not
 * held by a live claim.
 */
export async function claimAttempt(
  store: TableHandle,
  message: DeliveryMessage,
  now: number,
): Promise<AttemptClaim> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: deliveryKey(message.event_id, message.webhook_id),
        UpdateExpression: 'SET #state = :sending, lease_until = :lease',
        ConditionExpression:
          'attempt = :attempt AND (#state = :pending OR (#state = :sending AND lease_until < :now))',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':sending': 'sending',
          ':pending': 'pending',
          ':attempt': message.attempt,
          ':lease': now + DELIVERY_LEASE_MS,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'claimed', delivery: parseItem('webhook delivery', DeliveryItem, Attributes) };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const found = itemAtFailedCondition(error);
    const current = found && parseItem('webhook delivery', DeliveryItem, found);
    if (current?.attempt === message.attempt && current.state === 'sending') return { kind: 'busy' };
    if (current?.attempt === message.attempt + 1 && current.state === 'pending')
      return {
        kind: 'behind',
        next: { ...message, attempt: current.attempt, due_at: current.due_at },
      };
    return { kind: 'stale' };
  }
}

/**
 * Ends the claimed attempt: `delivered` or `failed` for good, or `pending` with the next attempt due.
 * Conditional on the claim, so a late duplicate cannot overwrite a newer outcome: false when the claim
 * was lost (its lease ran out and another took the attempt over).
 */
export async function finishAttempt(
  store: TableHandle,
  delivery: Delivery,
  outcome: { state: 'delivered' | 'failed' } | { state: 'pending'; next: DeliveryMessage },
  now: number,
): Promise<boolean> {
  return store.db
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: deliveryKey(delivery.event_id, delivery.webhook_id),
        UpdateExpression:
          'SET #state = :state, attempt = :next, due_at = :due, #ttl = :ttl REMOVE lease_until',
        ConditionExpression: 'attempt = :attempt AND #state = :sending',
        ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':state': outcome.state,
          ':next': outcome.state === 'pending' ? outcome.next.attempt : delivery.attempt,
          ':due': outcome.state === 'pending' ? outcome.next.due_at : delivery.due_at,
          ':attempt': delivery.attempt,
          ':sending': 'sending',
          ':ttl': ttlFromMillis(now + KEEP_MS),
        },
      }),
    )
    .then(
      () => true,
      (error: unknown) => {
        if (!isConditionFailed(error)) throw error;
        return false;
      },
    );
}
