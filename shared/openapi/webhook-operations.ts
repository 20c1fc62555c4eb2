import * as zod from 'zod/mini';
import { EVENT_TYPES } from '../events/booking-event.ts';
import {
  CreateWebhookRequest,
  DeleteWebhookRequest,
  ListWebhooksRequest,
} from '../events/manage-webhooks.ts';
import { booking } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, EmptyData, success } from './responses.ts';

const DateTime = zod.iso.datetime();

const WebhookFields = {
  id: zod.string().check(zod.describe('whk_ + 24 hex digits')),
  url: zod.string(),
  events: zod.array(zod.enum(EVENT_TYPES)),
  active: zod.boolean(),
  created_at: DateTime,
};

/** A webhook endpoint as list shows it: never its secret; its last delivery attempt, if any. */
export const WebhookEndpoint = zod.object({
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
export const CreatedWebhookEndpoint = zod.object({
  ...WebhookFields,
  secret: zod.string().check(zod.describe('whsec_ + base64 of 32 random bytes; shown only once')),
});

const endpoint = {
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
} satisfies Record<string, Operation>;

const EventTimestamp = DateTime.check(
  zod.describe('When the event happened (for a booking: its updated_at); the same on every retry'),
);

/** The body of a booking event's delivery: `{type, timestamp, data: Booking}` (Standard Webhooks). */
const bookingEvent = (type: (typeof EVENT_TYPES)[number]) =>
  zod.object({
    type: zod.literal(type),
    timestamp: EventTimestamp,
    data: Booking.check(zod.describe('The Booking as of this change; order events by its version')),
  });

/** The body of a `webhook.ping` delivery (`POST /api/agency/webhooks/ping`). */
export const WebhookPingEvent = zod.object({
  type: zod.literal('webhook.ping'),
  timestamp: EventTimestamp,
  data: zod.object({
    webhook_id: zod.string().check(zod.describe('The endpoint pinged (whk_…)')),
    agency_id: zod.string(),
  }),
});

const statusOf = {
  'booking.confirmed': 'CONFIRMED',
  'booking.held': 'HELD',
  'booking.cancelled': 'CANCELLED',
  'booking.expired': 'EXPIRED',
  'booking.failed': 'FAILED',
} as const;
const whenOf = {
  'booking.confirmed':
    'A booking is confirmed: booked at once, a hold confirmed, or a pending order settled.',
  'booking.held': 'A booking is held (booking/create with hold): it carries payment_required_by.',
  'booking.cancelled': 'A confirmed or held booking is cancelled.',
  'booking.expired': 'A hold passed payment_required_by without being confirmed.',
  'booking.failed': 'A pending order was settled as failed by the supplier.',
} as const;

const held = { payment_required_by: '2026-11-25T09:32:05Z' };
const settled = { status: 'FAILED', pnr: null, version: 2, updated_at: '2026-11-24T09:33:10Z' };
/** The Booking each event's example carries. */
const exampleData = {
  'booking.confirmed': booking,
  'booking.held': { ...booking, ...held, status: statusOf['booking.held'] },
  'booking.cancelled': {
    ...booking,
    status: statusOf['booking.cancelled'],
    version: 2,
    updated_at: '2026-11-24T10:05:00Z',
    cancelled_at: '2026-11-24T10:05:00Z',
    cancelled_by: booking.created_by,
    refund: { amount: booking.total_price, currency: booking.currency },
  },
  'booking.expired': {
    ...booking,
    ...held,
    status: statusOf['booking.expired'],
    version: 2,
    updated_at: held.payment_required_by,
  },
  'booking.failed': { ...booking, ...settled, supplier: { name: 'duffel' } },
} as const;

/** One event the webhooks section describes: its payload schema's component id, wording and example. */
export interface WebhookEvent {
  readonly schemaId: string;
  readonly schema: zod.ZodMiniType;
  readonly summary: string;
  readonly example: unknown;
}

const pascalType = (type: string) =>
  type.replace(/(^|[.-])([a-z])/g, (_, __, c: string) => c.toUpperCase()).replace(/\./g, '');

/** Every event an endpoint can receive (docs/API.md §4.6), by type: the document's `webhooks`. */
export const webhookEvents: Record<string, WebhookEvent> = {
  ...Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        schemaId: `${pascalType(type)}Event`,
        schema: bookingEvent(type),
        summary: whenOf[type],
        example: { type, timestamp: exampleData[type].updated_at, data: exampleData[type] },
      },
    ]),
  ),
  'webhook.ping': {
    schemaId: 'WebhookPingEvent',
    schema: WebhookPingEvent,
    summary: 'An ADMIN asked for a test delivery (POST /api/agency/webhooks/ping).',
    example: {
      type: 'webhook.ping',
      timestamp: '2026-11-24T09:40:00Z',
      data: { webhook_id: endpoint.id, agency_id: 'demo-agency' },
    },
  },
};
