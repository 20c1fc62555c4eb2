import * as z from 'zod/mini';
import { callerCheck, refusedCaller } from '../auth/caller-right.ts';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { TRY_AGAIN } from '../db/retry.ts';
import { type SlottedTransaction, slotted, transact } from '../db/transaction.ts';
import { LimitReachedError, NotFoundError, ValidationError } from '../errors.ts';
import '../zod-locale.ts';
import { EVENT_TYPES } from './booking-event.ts';
import {
  deleteWebhookItems,
  listAgencyWebhooks,
  MAX_WEBHOOKS_PER_AGENCY,
  newWebhookId,
  newWebhookItems,
  newWebhookSecret,
  sealSecret,
  WEBHOOK_ID_PATTERN,
  type Webhook,
} from './webhook-item.ts';
import {
  MAX_WEBHOOK_URL_LENGTH,
  parseWebhookUrl,
  type Resolver,
  resolveWebhookAddress,
  WebhookUrlError,
  type WebhookUrlPolicy,
} from './webhook-url.ts';

/** What the webhook routes need: the table, the clock, the key secrets are sealed with, the URL rules. */
interface WebhookDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly webhook: Uint8Array };
  readonly urlPolicy: WebhookUrlPolicy;
  readonly resolve: Resolver;
}

export const CreateWebhookRequest = z.object({
  url: z.string().check(
    z.minLength(1),
    z.maxLength(MAX_WEBHOOK_URL_LENGTH),
    z.meta({
      description:
        'https:// URL, at most 2048 characters, no credentials, no fragment; it must resolve to public addresses only (the local dev server also takes http://127.0.0.1:<port> and http://localhost:<port>)',
      // The deployed rules parseWebhookUrl applies that a pattern can state: the scheme, no user info.
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]://[^/?#@]+([/?][^#]*)?$',
      examples: ['https://agency.example.com/hooks/bookings'],
    }),
  ),
  events: z.optional(
    z
      .array(z.enum(EVENT_TYPES))
      .check(z.minLength(1), z.meta({ description: 'The event types to receive; every type when absent' })),
  ),
});

export const ListWebhooksRequest = z.object({});

export const DeleteWebhookRequest = z.object({
  webhook_id: z
    .string()
    .check(z.regex(new RegExp(`^${WEBHOOK_ID_PATTERN}$`), 'must be a webhook id (whk_…)')),
});

/** The Webhook resource of docs/API.md §4.6 (never with its secret). */
function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    active: webhook.active,
    created_at: webhook.created_at,
    last_delivery: webhook.last_delivery ?? null,
  };
}
type WebhookView = ReturnType<typeof webhookView>;

/**
 * `POST /api/agency/webhooks/create`: checks the URL (scheme, credentials, length, every address its
 * host resolves to), then stores the endpoint with its secret sealed and the agency's count in one
 * transaction (409 LIMIT_REACHED at the cap, under any concurrency). The secret is answered once.
 */
export function createWebhook(deps: WebhookDeps) {
  return async (body: z.output<typeof CreateWebhookRequest>, session: Session) => {
    try {
      await resolveWebhookAddress(parseWebhookUrl(body.url, deps.urlPolicy), deps.urlPolicy, deps.resolve);
    } catch (error) {
      if (error instanceof WebhookUrlError)
        throw new ValidationError([{ path: 'url', message: error.message }]);
      throw error;
    }
    const id = newWebhookId();
    const secret = newWebhookSecret();
    const webhook: Webhook = {
      id,
      agency_id: session.agencyId,
      url: body.url,
      events: [...new Set(body.events ?? EVENT_TYPES)],
      active: true,
      created_at: isoSeconds(deps.clock.now()),
      created_by: { id: session.agentId, name: session.agentName },
      secret_sealed: sealSecret(deps.keys.webhook, session.agencyId, id, secret.bytes),
    };
    const items = newWebhookItems(deps.tableName, webhook);
    const transaction = slotted([
      ['endpoint', items.endpoint],
      ['count', items.count],
      ['caller', { ConditionCheck: callerCheck(deps.tableName, session) }],
    ]);
    await writeCounted(deps, session, transaction, 'count', () => {
      throw new LimitReachedError(
        `Your agency already has ${MAX_WEBHOOKS_PER_AGENCY} webhook endpoints: delete one first.`,
      );
    });
    const { last_delivery: _none, ...view } = webhookView(webhook);
    return { ...view, secret: secret.text };
  };
}

/**
 * Writes an endpoint change with the agency's count and the caller's right to administer (its `caller`
 * slot: a deactivated or demoted ADMIN's racing request changes nothing, 401 or 403, as agent changes
 * do). Parallel changes of one agency touch the same counters item, and DynamoDB may cancel one of two
 * such transactions as a conflict: it is tried again (db/retry.ts); a failed condition on
 * `refusedSlot` calls `refused`.
 */
async function writeCounted<Slot extends string>(
  deps: TableHandle,
  session: Session,
  transaction: SlottedTransaction<Slot | 'caller'>,
  refusedSlot: Slot,
  refused: () => never,
): Promise<void> {
  await transact(deps.db, () => transaction, {
    written: () => undefined,
    cancelled: async (reasons, error): Promise<typeof TRY_AGAIN> => {
      if (reasons.conditionFailed('caller')) throw await refusedCaller(deps, session);
      if (reasons.conditionFailed(refusedSlot)) refused();
      if (reasons.any('TransactionConflict')) return TRY_AGAIN;
      throw error;
    },
  });
}

/** `POST /api/agency/webhooks/list`: the agency's endpoints with their last delivery, never a secret. */
export function listWebhooks(deps: TableHandle) {
  return async (_body: z.output<typeof ListWebhooksRequest>, session: Session): Promise<WebhookView[]> =>
    (await listAgencyWebhooks(deps, session.agencyId))
      .sort((a, b) => (a.created_at + a.id < b.created_at + b.id ? -1 : 1))
      .map(webhookView);
}

/** `POST /api/agency/webhooks/delete`: removes an endpoint of the caller's agency; another agency's is 404. */
export function deleteWebhook(deps: TableHandle) {
  return async (
    body: z.output<typeof DeleteWebhookRequest>,
    session: Session,
  ): Promise<Record<string, never>> => {
    const items = deleteWebhookItems(deps.tableName, session.agencyId, body.webhook_id);
    const transaction = slotted([
      ['endpoint', items.endpoint],
      ['count', items.count],
      ['caller', { ConditionCheck: callerCheck(deps.tableName, session) }],
    ]);
    await writeCounted(deps, session, transaction, 'endpoint', () => {
      throw new NotFoundError('No such webhook endpoint in your agency.');
    });
    return {};
  };
}
