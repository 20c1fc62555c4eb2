import * as zod from 'zod/mini';
import { RateLimitedError } from '../errors.ts';
import { EVENT_TYPES } from '../events/booking-event.ts';
import {
  CreateWebhookRequest,
  DeleteWebhookRequest,
  ListWebhooksRequest,
} from '../events/manage-webhooks.ts';
import {
  MAX_PINGS_PER_AGENCY,
  MAX_PINGS_PER_HOUR,
  PING_LIMIT_MESSAGE,
  PingWebhookRequest,
} from '../events/ping.ts';
import type { Operation } from './operation.ts';
import { EmptyData, success } from './responses.ts';

const DateTime = zod.iso.datetime();

const WebhookFields = {
  id: zod.string().check(zod.describe('whk_ + 24 hex digits')),
  url: zod.string(),
  events: zod.array(zod.enum(EVENT_TYPES)),
  active: zod.boolean(),
  created_at: DateTime,
};

/** A webhook endpoint as list shows it: never its secret; its last delivery attempt, if any. */
const WebhookEndpoint = zod.object({
  ...WebhookFields,
  last_delivery: zod.nullable(
    zod.object({
      at: DateTime,
      event_id: zod.string().check(zod.describe('evt_…, the webhook-id header of the delivery')),
      outcome: zod.enum(['delivered', 'failed', 'retrying']),
      http_status: zod.optional(zod.int()),
    }),
  ),
});

/** The created endpoint, with its signing secret: shown in this answer only. */
const CreatedWebhookEndpoint = zod.object({
  ...WebhookFields,
  secret: zod.string().check(zod.describe('whsec_ + base64 of 32 random bytes; shown only once')),
});

export const endpoint = {
  id: 'whk_3c9f0a1b2d4e5f6a7b8c9d0e',
  url: 'https://agency.example.com/hooks/bookings',
  events: [...EVENT_TYPES],
  active: true,
  created_at: '2026-11-24T08:15:00Z',
};

const adminOnly = 'ADMIN only (403 FORBIDDEN for other roles), and only within your agency.';

/** The webhook endpoint routes (docs/API.md §4.6). */
export const webhookOperations = {
  'agency-webhooks-create': {
    summary: 'Register a webhook endpoint',
    description: `The endpoint receives every booking state change of your agency it asks for, signed per Standard Webhooks with the secret answered here (and never again). The URL must be https://, at most 2048 characters, without credentials, and resolve to public addresses only (checked again at every delivery). At most 5 endpoints per agency (409 LIMIT_REACHED). ${adminOnly}`,
    tag: 'Agency',
    request: CreateWebhookRequest,
    requestExample: { url: endpoint.url, events: ['booking.confirmed', 'booking.cancelled'] },
    status: 201,
    response: success(CreatedWebhookEndpoint),
    responseExample: {
      success: true,
      data: {
        ...endpoint,
        events: ['booking.confirmed', 'booking.cancelled'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2Lq/dZ6kQSs=',
      },
    },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'LIMIT_REACHED'],
  },
  'agency-webhooks-list': {
    summary: 'List your agency’s webhook endpoints',
    description: `Every endpoint of your agency with its last delivery attempt; secrets are never shown. ${adminOnly}`,
    tag: 'Agency',
    request: ListWebhooksRequest,
    requestExample: {},
    status: 200,
    response: success(zod.array(WebhookEndpoint)),
    responseExample: {
      success: true,
      data: [
        {
          ...endpoint,
          last_delivery: {
            at: '2026-11-24T09:32:06Z',
            event_id: 'evt_Qm3sXk7v2LpR9tYw4bN8cD1fG6hJ0aZe',
            outcome: 'delivered',
            http_status: 204,
          },
        },
      ],
    },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  },
  'agency-webhooks-delete': {
    summary: 'Delete a webhook endpoint',
    description: `Deliveries to it stop, retries included. Another agency’s endpoint is 404. ${adminOnly}`,
    tag: 'Agency',
    request: DeleteWebhookRequest,
    requestExample: { webhook_id: endpoint.id },
    status: 200,
    response: success(EmptyData),
    responseExample: { success: true, data: {} },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
  'agency-webhooks-ping': {
    summary: 'Send a test event to a webhook endpoint',
    description: `The endpoint receives a webhook.ping event (data: webhook_id and agency_id) through the same signing, delivery and retries as booking events; webhooks/list shows its outcome in last_delivery. At most ${MAX_PINGS_PER_HOUR} pings per endpoint and ${MAX_PINGS_PER_AGENCY} per agency in any hour (429 RATE_LIMITED with Retry-After); deleting an endpoint and creating it again resets neither. Another agency’s endpoint is 404. ${adminOnly}`,
    tag: 'Agency',
    request: PingWebhookRequest,
    requestExample: { webhook_id: endpoint.id },
    status: 202,
    response: success(
      zod.object({
        event_id: zod
          .string()
          .check(zod.describe('evt_…: the webhook-id header of the delivery, and last_delivery.event_id')),
      }),
    ),
    responseExample: { success: true, data: { event_id: 'evt_Yt3kQ9mW2xLp7RvB4nC8dF1gH6jK0aZs' } },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'RATE_LIMITED'],
    errorExamples: {
      RATE_LIMITED: new RateLimitedError(1200, PING_LIMIT_MESSAGE),
    },
  },
} satisfies Record<string, Operation>;
