import { randomBytes } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { callerCheck, refusedCaller } from '../auth/caller-right.ts';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { type RetryPolicy, retrying, TRY_AGAIN } from '../db/retry.ts';
import { cancellationReasons, slotted } from '../db/transaction.ts';
import { NotFoundError, RateLimitedError } from '../errors.ts';
import '../zod-locale.ts';
import { newPingItem } from './ping-item.ts';
import { WEBHOOK_ID_PATTERN, webhookKey } from './webhook-item.ts';

/**
 * `POST /api/agency/webhooks/ping` (docs/API.md §4.6): a `webhook.ping` event for one endpoint. The
 * route writes the event's item; the table's stream hands it to the events function like a booking's
 * change, which makes its delivery, so a ping goes through the same delivery item, queue, signing,
 * retries and `last_delivery` as a booking event.
 */

/** At most this many pings per endpoint in any hour (docs/API.md §4.6). */
export const MAX_PINGS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;
export const PING_LIMIT_MESSAGE = `At most ${MAX_PINGS_PER_HOUR} pings per endpoint an hour; try again later.`;

export const PingWebhookRequest = z.object({
  webhook_id: z
    .string()
    .check(z.regex(new RegExp(`^${WEBHOOK_ID_PATTERN}$`), 'must be a webhook id (whk_…)')),
});

/** A ping's event id: `evt_` and 32 random base64url characters, the form booking events' ids take. */
const newPingEventId = () => `evt_${randomBytes(24).toString('base64url')}`;

/**
 * The rate limit lives on the endpoint's item as ten slots (`ping_0` … `ping_9`), each the time of the
 * ping that took it: a ping takes a slot that is empty or an hour old, written on that condition, so a
 * slot serves at most one ping in any hour and no hour ever holds more than ten (a sliding window,
 * exact under races). Racing pings pick among the free slots at random, so most take different ones.
 */
const SLOTS = Array.from({ length: MAX_PINGS_PER_HOUR }, (_, i) => `ping_${i}`);

/**
 * Pings of one endpoint race only each other: every lost race means another ping took a slot, so after
 * the limit's worth of losses the slots are full and the next read answers 429.
 */
const PING_RETRIES: RetryPolicy = {
  tries: MAX_PINGS_PER_HOUR + 2,
  exhausted: () => new RateLimitedError(1, 'Too many pings of this endpoint at once; try again.'),
};

/** What the ping route needs: the table and the clock. */
interface PingDeps extends TableHandle {
  readonly clock: Clock;
}

/**
 * The route's action: 404 for an endpoint not in the caller's agency, 429 RATE_LIMITED (with
 * Retry-After: when the oldest of the hour's ten pings is an hour old) past the limit; otherwise the
 * ping item, a slot of the endpoint's limit and the caller's right to administer in one transaction,
 * and the event's id.
 */
export function pingWebhook(deps: PingDeps) {
  return async (
    body: z.output<typeof PingWebhookRequest>,
    session: Session,
  ): Promise<{ event_id: string }> => {
    const eventId = newPingEventId();
    await retrying(async () => {
      const now = deps.clock.now();
      const { Item } = await deps.db.send(
        new GetCommand({
          TableName: deps.tableName,
          Key: webhookKey(session.agencyId, body.webhook_id),
          ConsistentRead: true,
        }),
      );
      if (!Item) throw new NotFoundError('No such webhook endpoint in your agency.');
      const taken = (slot: string) => (typeof Item[slot] === 'number' ? (Item[slot] as number) : undefined);
      const free = SLOTS.filter((slot) => (taken(slot) ?? 0) <= now - HOUR_MS);
      const slot = free[Math.floor(Math.random() * free.length)];
      if (slot === undefined) {
        const oldest = Math.min(...SLOTS.map((s) => taken(s) ?? 0));
        throw new RateLimitedError((oldest + HOUR_MS - now) / 1000, PING_LIMIT_MESSAGE);
      }
      const transaction = slotted([
        [
          'endpoint',
          {
            Update: {
              TableName: deps.tableName,
              Key: webhookKey(session.agencyId, body.webhook_id),
              UpdateExpression: 'SET #slot = :now',
              ConditionExpression:
                'attribute_exists(pk) AND (attribute_not_exists(#slot) OR #slot <= :hourAgo)',
              ExpressionAttributeNames: { '#slot': slot },
              ExpressionAttributeValues: { ':now': now, ':hourAgo': now - HOUR_MS },
            },
          },
        ],
        [
          'ping',
          newPingItem(deps.tableName, {
            eventId,
            webhookId: body.webhook_id,
            agencyId: session.agencyId,
            at: isoSeconds(now),
            now,
          }),
        ],
        ['caller', { ConditionCheck: callerCheck(deps.tableName, session) }],
      ]);
      try {
        await deps.db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
        return true;
      } catch (error) {
        const reasons = cancellationReasons(error, transaction.slots);
        if (reasons?.conditionFailed('caller')) throw await refusedCaller(deps, session);
        // Another ping (or a deletion) came between the read and the write: read again.
        if (reasons?.conditionFailed('endpoint') || reasons?.any('TransactionConflict')) return TRY_AGAIN;
        throw error;
      }
    }, PING_RETRIES);
    return { event_id: eventId };
  };
}
