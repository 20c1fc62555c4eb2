import { createHash } from 'node:crypto';
import { type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod/mini';
import { bookingView } from '../bookings/entity/booking.ts';
import {
  type BookingRecord,
  type BookingView,
  isBookingKey,
  readBookingItem,
} from '../bookings/entity/booking-item.ts';

/** The event types of docs/API.md §4.6, one per state a booking can enter (PENDING has none). */
export const EVENT_TYPES = [
  'booking.confirmed',
  'booking.held',
  'booking.cancelled',
  'booking.expired',
  'booking.failed',
  'booking.changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const TYPE_OF_STATUS: Readonly<Record<string, EventType>> = {
  CONFIRMED: 'booking.confirmed',
  HELD: 'booking.held',
  CANCELLED: 'booking.cancelled',
  EXPIRED: 'booking.expired',
  FAILED: 'booking.failed',
};

/** One booking state change. */
export interface BookingEvent {
  /** `evt_…`: the same for every redelivery of the stream record (webhook-id, notice guard). */
  readonly id: string;
  readonly type: EventType;
  /** When the change happened: the booking's `updated_at`. */
  readonly occurredAt: string;
  readonly agencyId: string;
  /** The Booking resource of the new state, as webhooks carry it. */
  readonly booking: BookingView;
  /** The hold's deadline, for `booking.held` notices (bookings that carry one). */
  readonly paymentRequiredBy?: string;
}

/**
 * A change-stream record, as Lambda hands it to the events function and as DynamoDB Streams answers
 * GetRecords locally: the item's images in DynamoDB's JSON.
 */
export interface StreamRecord {
  readonly eventName?: string;
  readonly dynamodb?: {
    readonly NewImage?: Record<string, unknown>;
    readonly OldImage?: Record<string, unknown>;
    readonly SequenceNumber?: string;
  };
}

/** An image's keys, in DynamoDB JSON. */
const StoredKeys = z.object({ pk: z.object({ S: z.string() }), sk: z.object({ S: z.string() }) });

const plain = (
  image: Record<string, unknown> | undefined,
): Record<string, NativeAttributeValue> | undefined =>
  // The stream's images are DynamoDB JSON; unmarshall reads every attribute type it can hold.
  image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : undefined;

/**
 * The event id: derived from (booking id, version) when the booking carries a version, else from
 * (booking id, status), so a redelivered record, or a second reading of the same change, gives the
 * same id.
 */
export function eventId(bookingId: string, change: { version?: number; status: string }): string {
  const basis =
    change.version === undefined ? `${bookingId}#${change.status}` : `${bookingId}#v${change.version}`;
  return `evt_${createHash('sha256').update(basis).digest('base64url').slice(0, 32)}`;
}

/**
 * The event a stream record is, if any: a booking item whose `status` changed (a new item changes
 * from nothing) into a state that has an event. Other items, removals, PENDING and changes that leave
 * the status alone are none. A booking image the booking module cannot read throws (a poison record:
 * the events function reports it and the stream's retry and dead-letter rules take it from there).
 */
/** `booking.changed` when a CONFIRMED booking's flights were changed (docs/API.md §4.9): `changes` grew. */
function changedType(before: Record<string, unknown>, now: Record<string, unknown>): EventType | undefined {
  const count = (image: Record<string, unknown>) => (Array.isArray(image.changes) ? image.changes.length : 0);
  return now.status === 'CONFIRMED' && count(now) > count(before) ? 'booking.changed' : undefined;
}

export function bookingEventOf(record: StreamRecord): BookingEvent | undefined {
  // Keys first: only booking items are read whole (other items' images are none of this code's business).
  const keys = StoredKeys.safeParse(record.dynamodb?.NewImage);
  if (!keys.success || !isBookingKey({ pk: keys.data.pk.S, sk: keys.data.sk.S })) return undefined;
  const now = plain(record.dynamodb?.NewImage);
  if (!now) return undefined;
  const before = plain(record.dynamodb?.OldImage);
  const status = String(now.status);
  const type = before?.status === status ? changedType(before, now) : TYPE_OF_STATUS[status];
  if (!type) return undefined;
  const stored: BookingRecord | undefined = readBookingItem(now);
  if (!stored) return undefined;
  // The agency's notes are its own: never in a webhook's data nor a traveller's notice (docs/API.md §4.3).
  const { notes: _, ...booking } = bookingView(stored);
  const deadline = typeof now.payment_required_by === 'string' ? now.payment_required_by : undefined;
  return {
    id: eventId(stored.booking_id, { version: stored.version, status }),
    type,
    occurredAt: booking.updated_at,
    agencyId: stored.agency_id,
    booking,
    ...(deadline && { paymentRequiredBy: deadline }),
  };
}
