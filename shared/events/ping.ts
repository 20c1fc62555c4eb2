import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { callerCheck, refusedCaller } from '../auth/caller-right.ts';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { type RetryPolicy, TRY_AGAIN } from '../db/retry.ts';
import { slotted, transact } from '../db/transaction.ts';
import { NotFoundError, RateLimitedError } from '../errors.ts';
import '../zod-locale.ts';
import { newPingItem } from './ping-item.ts';
import { agencyPingsKey, endpointPingsKey, freeSlot, readPingSlots, takeSlot } from './ping-limit-item.ts';
import { findWebhook, WEBHOOK_ID_PATTERN, webhookExists } from './webhook-item.ts';

/**
 * `POST /api/agency/webhooks/ping` (docs/API.md §4.6): a `webhook.ping` event for one endpoint. The
 * route writes the event's item; the table's stream hands it to the events function like a booking's
 * change, which makes its delivery, so a ping goes through the same delivery item, queue, signing,
 * retries and `last_delivery` as a booking event. Limited per endpoint and per agency, in items that
 * outlive the endpoint (ping-limit-item.ts).
 */

/** At most this many pings per endpoint, and per agency, in any hour (docs/API.md §4.6). */
export const MAX_PINGS_PER_HOUR = 10;
export const MAX_PINGS_PER_AGENCY = 20;
export const PING_LIMIT_MESSAGE = `At most ${MAX_PINGS_PER_HOUR} pings per endpoint an hour; try again later.`;
const AGENCY_PING_LIMIT_MESSAGE = `At most ${MAX_PINGS_PER_AGENCY} pings per agency an hour; try again later.`;

export const PingWebhookRequest = z.object({
  webhook_id: z
    .string()
    .check(z.regex(new RegExp(`^${WEBHOOK_ID_PATTERN}$`), 'must be a webhook id (whk_…)')),
});

/** A ping's event id: `evt_` and 32 random base64url characters, the form booking events' ids take. */
const newPingEventId = () => `evt_${randomBytes(24).toString('base64url')}`;

/**
 * Pings of one agency race only each other: every lost race means another ping took a slot (or
 * conflicted with one that did), so after the agency limit's worth of losses the slots are full and
 * the next read answers 429.
 */
const PING_RETRIES: RetryPolicy = {
  tries: MAX_PINGS_PER_AGENCY + 2,
  exhausted: () => new RateLimitedError(1, 'Too many pings at once; try again.'),
};

/** What the ping route needs: the table and the clock. */
interface PingDeps extends TableHandle {
  readonly clock: Clock;
}

/** The two limits a ping spends a slot of (ping-limit-item.ts): its endpoint URL's and its agency's. */
const limitsOf = (agencyId: string, url: string) =>
  ({
    endpointLimit: {
      key: endpointPingsKey(agencyId, url),
      slots: MAX_PINGS_PER_HOUR,
      message: PING_LIMIT_MESSAGE,
    },
    agencyLimit: {
      key: agencyPingsKey(agencyId),
      slots: MAX_PINGS_PER_AGENCY,
      message: AGENCY_PING_LIMIT_MESSAGE,
    },
  }) as const;

/**
 * The Update taking a free slot of each limit at `now`, by the limit's name; or 429 RATE_LIMITED when
 * one is full, with Retry-After until a ping fits both (the later of the full limits' oldest slots
 * an hour old).
 */
async function takeSlots(deps: PingDeps, agencyId: string, url: string, now: number) {
  const limits = Object.entries(limitsOf(agencyId, url));
  const read = await Promise.all(
    limits.map(async ([name, limit]) => {
      const free = freeSlot(await readPingSlots(deps, limit.key), limit.slots, now);
      return { name, limit, free };
    }),
  );
  let wait: { ms: number; message: string } | undefined;
  const updates: Record<string, ReturnType<typeof takeSlot>> = {};
  for (const { name, limit, free } of read) {
    if ('slot' in free) updates[name] = takeSlot(deps.tableName, limit.key, free.slot, now);
    else if (!wait || free.retryAfterMs > wait.ms) wait = { ms: free.retryAfterMs, message: limit.message };
  }
  if (wait) throw new RateLimitedError(wait.ms / 1000, wait.message);
  return updates as Record<keyof ReturnType<typeof limitsOf>, ReturnType<typeof takeSlot>>;
}

/**
 * The route's action: 404 for an endpoint not in the caller's agency, 429 RATE_LIMITED past either
 * limit; otherwise, in one transaction, the ping item, a slot of each limit, the endpoint still there
 * and the caller's right to administer; and the event's id.
 */
export function pingWebhook(deps: PingDeps) {
  return async (
    body: z.output<typeof PingWebhookRequest>,
    session: Session,
  ): Promise<{ event_id: string }> => {
    const eventId = newPingEventId();
    await transact(
      deps.db,
      async () => {
        const now = deps.clock.now();
        const endpoint = await findWebhook(deps, session.agencyId, body.webhook_id);
        if (!endpoint) throw new NotFoundError('No such webhook endpoint in your agency.');
        const slots = await takeSlots(deps, session.agencyId, endpoint.url, now);
        return slotted([
          ['endpoint', { ConditionCheck: webhookExists(deps.tableName, session.agencyId, body.webhook_id) }],
          ['endpointLimit', slots.endpointLimit],
          ['agencyLimit', slots.agencyLimit],
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
      },
      {
        written: () => undefined,
        cancelled: async (reasons, error): Promise<typeof TRY_AGAIN> => {
          if (reasons.conditionFailed('caller')) throw await refusedCaller(deps, session);
          // Another ping (or a deletion) came between the reads and the write: read again.
          const raced = (['endpoint', 'endpointLimit', 'agencyLimit'] as const).some((slot) =>
            reasons.conditionFailed(slot),
          );
          if (raced || reasons.any('TransactionConflict')) return TRY_AGAIN;
          throw error;
        },
        policy: PING_RETRIES,
      },
    );
    return { event_id: eventId };
  };
}
