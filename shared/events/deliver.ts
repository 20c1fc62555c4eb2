import { Webhook as StandardWebhook } from 'standardwebhooks';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { claimAttempt, type Delivery, type DeliveryMessage, finishAttempt } from './delivery-item.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { retryDelayMs } from './retry-schedule.ts';
import { findWebhook, type LastDelivery, openSecret, recordLastDelivery } from './webhook-item.ts';
import { type PostOutcome, postWebhook } from './webhook-post.ts';
import {
  parseWebhookUrl,
  type Resolver,
  resolveWebhookAddress,
  WebhookUrlError,
  type WebhookUrlPolicy,
} from './webhook-url.ts';

/** What the delivery function needs. */
export interface DeliveryDeps extends TableHandle {
  readonly clock: Clock;
  readonly log: Logger;
  readonly keys: { readonly webhook: Uint8Array };
  readonly queue: DeliveryQueue;
  readonly urlPolicy: WebhookUrlPolicy;
  readonly resolve: Resolver;
  /** EVENTS_TIME_SCALE: 1 deployed; smaller locally, so tests need not wait hours. */
  readonly timeScale: number;
  /** The attempt's deadline (10 s; tests shorten it). */
  readonly timeoutMs?: number;
}

/** How one message ended: `retry-later` asks the queue to hand it over again (a live claim holds it). */
type MessageResult = 'done' | 'retry-later';

/**
 * The body every attempt of a delivery sends, byte for byte: `{type, timestamp, data}` with the
 * event's time and the Booking as of the event (docs/API.md §4.6).
 */
const deliveryBody = (delivery: Delivery) =>
  JSON.stringify({ type: delivery.type, timestamp: delivery.occurred_at, data: delivery.data });

/**
 * Standard Webhooks headers for one attempt: `webhook-id` is the event id (the same on every retry),
 * `webhook-timestamp` the attempt's time (receivers refuse old timestamps), `webhook-signature`
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint's secret, by the specification's
 * own library.
 */
function signedHeaders(secret: Buffer, eventId: string, at: number, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(at / 1000) * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': new StandardWebhook(secret, { format: 'raw' }).sign(eventId, timestamp, body),
  };
}

/** Makes the claimed attempt: checks the address again, signs and posts. */
async function attempt(delivery: Delivery, deps: DeliveryDeps): Promise<PostOutcome | 'gone' | 'refused'> {
  const endpoint = await findWebhook(deps, delivery.agency_id, delivery.webhook_id);
  if (!endpoint?.active) return 'gone';
  const secret = openSecret(deps.keys.webhook, endpoint);
  if (!secret) {
    // Sealed under another key, or changed in the table: nothing is sent unsigned.
    deps.log.error('webhook secret unreadable', { webhook_id: endpoint.id });
    return 'gone';
  }
  try {
    // Checked again at every attempt: the name may resolve elsewhere since the endpoint was created.
    const url = parseWebhookUrl(endpoint.url, deps.urlPolicy);
    const address = await resolveWebhookAddress(url, deps.urlPolicy, deps.resolve);
    const body = deliveryBody(delivery);
    const headers = signedHeaders(secret, delivery.event_id, deps.clock.now(), body);
    return await postWebhook(url, address, headers, body, deps.timeoutMs);
  } catch (error) {
    if (error instanceof WebhookUrlError) return 'refused';
    throw error;
  }
}

/**
 * The delivery function's work on one queue message: claim the attempt it names, make it, and record
 * the outcome — delivered, retried later through the queue with a growing delay, or failed for good
 * after the last attempt (at least 24 hours after the first).
 */
export async function handleDeliveryMessage(
  message: DeliveryMessage,
  deps: DeliveryDeps,
): Promise<MessageResult> {
  const now = deps.clock.now();
  if (message.due_at > now + 1000) {
    // Held back at most 15 minutes by SQS: wait again for the rest.
    await deps.queue.enqueue(message, now);
    return 'done';
  }
  const claim = await claimAttempt(deps, message, now);
  if (claim.kind === 'busy') return 'retry-later';
  if (claim.kind === 'behind') await deps.queue.enqueue(claim.next, now);
  if (claim.kind !== 'claimed') return 'done';

  const { delivery } = claim;
  const outcome = await attempt(delivery, deps);
  await recordOutcome(message, delivery, outcome, deps);
  return 'done';
}

/**
 * Records how the attempt of `delivery` ended: delivered, failed for good after the last attempt, or
 * the next attempt due after a growing delay (the item first, then the queue); the endpoint's last
 * delivery and a log line either way. An endpoint gone since the event ends the delivery unrecorded.
 */
async function recordOutcome(
  message: DeliveryMessage,
  delivery: Delivery,
  outcome: PostOutcome | 'gone' | 'refused',
  deps: DeliveryDeps,
): Promise<void> {
  const fields = {
    event_id: delivery.event_id,
    webhook_id: delivery.webhook_id,
    attempt: delivery.attempt,
  };
  const finished = deps.clock.now();
  if (outcome === 'gone') {
    // The endpoint was deleted or deactivated since the event: nothing to deliver to, nothing to record.
    await finishAttempt(deps, delivery, { state: 'failed' }, finished);
    deps.log.info('webhook endpoint gone', fields);
    return;
  }
  const status = typeof outcome === 'object' && 'status' in outcome ? outcome.status : undefined;
  const delivered = typeof outcome === 'object' && outcome.delivered;
  const last = (result: LastDelivery['outcome']): LastDelivery => ({
    at: isoSeconds(finished),
    event_id: delivery.event_id,
    outcome: result,
    ...(status !== undefined && { http_status: status }),
  });
  const reason =
    outcome === 'refused'
      ? 'address refused'
      : typeof outcome === 'object' && 'error' in outcome
        ? outcome.error
        : undefined;

  if (delivered) {
    if (await finishAttempt(deps, delivery, { state: 'delivered' }, finished))
      await recordLastDelivery(deps, delivery.agency_id, delivery.webhook_id, last('delivered'));
    deps.log.info('webhook delivered', { ...fields, http_status: status });
    return;
  }
  const delay = retryDelayMs(delivery.attempt, deps.timeScale);
  if (delay === undefined) {
    if (await finishAttempt(deps, delivery, { state: 'failed' }, finished))
      await recordLastDelivery(deps, delivery.agency_id, delivery.webhook_id, last('failed'));
    deps.log.warn('webhook delivery failed', { ...fields, http_status: status, reason });
    return;
  }
  const next = { ...message, attempt: delivery.attempt + 1, due_at: finished + delay };
  if (await finishAttempt(deps, delivery, { state: 'pending', next }, finished)) {
    await recordLastDelivery(deps, delivery.agency_id, delivery.webhook_id, last('retrying'));
    // After the item says which attempt is due: if this enqueue is lost, a duplicate of this message
    // finds the delivery `behind` and enqueues it again.
    await deps.queue.enqueue(next, finished);
  }
  deps.log.info('webhook attempt failed', { ...fields, http_status: status, reason, retry_in_ms: delay });
}
