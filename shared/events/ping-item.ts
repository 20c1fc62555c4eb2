import * as z from 'zod/mini';
import { eventPartition, ttlFromMillis } from '../db/table.ts';
import type { StreamRecord } from './booking-event.ts';

/**
 * The ping event's item (`EVENT#<event id>` / `PING`), written by the ping route (ping.ts), and the
 * `webhook.ping` event it is when the stream hands it to the events function; apart from the route so
 * the events function loads none of the sign-in code.
 */
export const PING_EVENT_TYPE = 'webhook.ping' as const;

/** The ping event's item (`EVENT#<event id>` / `PING`): what the stream turns into one delivery. */
export const pingKey = (eventId: string) => ({ pk: eventPartition(eventId), sk: 'PING' });

/** Kept as long as a delivery item: past every redelivery of its stream record. */
const KEEP_MS = 7 * 86_400_000;

/** The Put of a new ping event, for the route's transaction (the id is new: it never overwrites). */
export function newPingItem(
  tableName: string,
  ping: { eventId: string; webhookId: string; agencyId: string; at: string; now: number },
) {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...pingKey(ping.eventId),
        event_id: ping.eventId,
        webhook_id: ping.webhookId,
        agency_id: ping.agencyId,
        at: ping.at,
        ttl: ttlFromMillis(ping.now + KEEP_MS),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A ping as the events function reads it from the stream. */
export interface PingEvent {
  readonly id: string;
  readonly webhookId: string;
  readonly agencyId: string;
  readonly occurredAt: string;
}

const PingImage = z.object({
  pk: z.object({ S: z.string() }),
  sk: z.object({ S: z.literal('PING') }),
  event_id: z.object({ S: z.string() }),
  webhook_id: z.object({ S: z.string() }),
  agency_id: z.object({ S: z.string() }),
  at: z.object({ S: z.string() }),
});

/** The ping a stream record is, if any: a new ping item (anything else, or its removal by TTL, is none). */
export function pingEventOf(record: StreamRecord): PingEvent | undefined {
  if (record.eventName !== 'INSERT') return undefined;
  const image = PingImage.safeParse(record.dynamodb?.NewImage);
  if (!image.success) return undefined;
  const { event_id, webhook_id, agency_id, at } = image.data;
  return { id: event_id.S, webhookId: webhook_id.S, agencyId: agency_id.S, occurredAt: at.S };
}
