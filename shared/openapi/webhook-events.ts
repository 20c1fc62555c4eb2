import * as zod from 'zod/mini';
import { EVENT_TYPES } from '../events/booking-event.ts';
import { booking } from './examples.ts';
import { Booking } from './responses.ts';
import { endpoint } from './webhook-operations.ts';

/**
 * The document's `webhooks` section (OpenAPI 3.1, docs/API.md §4.6): every event a registered endpoint
 * receives, its payload as a component schema, an example and the Standard Webhooks headers.
 */

type Json = Record<string, unknown>;

/** The tag of the webhooks section's operations. */
export const webhooksTag = {
  name: 'Webhooks',
  description: 'What the service POSTs to an agency’s registered endpoints (webhooks/create).',
};
const DateTime = zod.iso.datetime();

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
const WebhookPingEvent = zod.object({
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
  'booking.changed': 'CONFIRMED',
} as const;
const whenOf = {
  'booking.confirmed':
    'A booking is confirmed: booked at once, a hold confirmed, or a pending order settled.',
  'booking.held': 'A booking is held (booking/create with hold): it carries payment_required_by.',
  'booking.cancelled': 'A confirmed or held booking is cancelled.',
  'booking.expired': 'A hold passed payment_required_by without being confirmed.',
  'booking.failed': 'A pending order was settled as failed by the supplier.',
  'booking.changed':
    'A confirmed booking’s flights were changed (booking/change): the Booking carries the new flight and its changes.',
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
  'booking.changed': {
    ...booking,
    version: 2,
    updated_at: '2026-11-24T10:05:00Z',
    changes: [
      {
        at: '2026-11-24T10:05:00Z',
        by: booking.created_by,
        from: booking.flight.outbound.segments,
        to: booking.flight.outbound.segments.map((s) => ({
          ...s,
          departure_at: s.departure_at.replace('-12-01', '-12-03'),
          arrival_at: s.arrival_at.replace('-12-01', '-12-03'),
        })),
        change_total: { amount: 25, currency: booking.currency },
      },
    ],
  },
} as const;

/** One event the webhooks section describes: its payload schema's component id, wording and example. */
interface WebhookEvent {
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

/** The Standard Webhooks headers every delivery carries (docs/API.md §4.6). */
const deliveryHeaders = [
  [
    'webhook-id',
    'The event id (evt_…): the same on every retry; dedupe on it',
    'evt_Qm3sXk7v2LpR9tYw4bN8cD1fG6hJ0aZe',
  ],
  ['webhook-timestamp', 'Seconds since the epoch of this attempt; refuse old ones', '1795513925'],
  [
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> keyed with the secret’s bytes (the base64 after whsec_)',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ],
].map(([name, description, example]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
}));

/**
 * The document's `webhooks` (OpenAPI 3.1): what each event's delivery POSTs to a registered endpoint,
 * so a client generator types the payloads as it types the answers.
 */
export function webhooksSection(ref: (id: string) => Json): Json {
  return Object.fromEntries(
    Object.entries(webhookEvents).map(([type, event]) => [
      type,
      {
        post: {
          operationId: event.schemaId.replace(/^./, (c) => c.toLowerCase()),
          summary: type,
          description: `${event.summary} Signed per Standard Webhooks; retried with growing delays for at least 24 hours until a 2xx answers within 10 seconds; redirects are not followed.`,
          tags: ['Webhooks'],
          parameters: deliveryHeaders,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(event.schemaId), example: event.example } },
          },
          responses: {
            '2XX': {
              description: 'Delivered: any 2xx status within 10 seconds (the body is not read beyond 4 KB)',
            },
          },
        },
      },
    ]),
  );
}
