import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { bookingEventOf, eventId, type StreamRecord } from '#shared/events/booking-event.ts';
import { booking as example } from '#shared/openapi/examples.ts';

/**
 * The stream record → event mapping over records shaped as Lambda hands them to the events function
 * (DynamoDB JSON images, NEW_AND_OLD_IMAGES), for every state change docs/API.md §4.3–4.6 names. Each
 * image is what the booking flow's own writes leave (booking-updates.ts): a new item at version 1, and
 * every state change moves `status`, `updated_at` and `version` together.
 */
const BOOKING_ID = example.booking_id;
const CREATED = '2026-11-24T09:32:05Z';
const LATER = '2026-11-24T10:05:00Z';
const DEADLINE = '2026-11-25T09:32:05Z';

/** A booking item as DynamoDB stores it (keys, listing keys and the stored record). */
function stored(change: Record<string, unknown> = {}): Record<string, unknown> {
  const { total_price, ...answered } = example;
  const segment = example.flight.outbound.segments[0];
  return {
    ...bookingKey(BOOKING_ID),
    gsi1pk: 'AGENCY#acme-travel',
    gsi1sk: `${CREATED}#${BOOKING_ID}`,
    ...answered,
    created_at: CREATED,
    updated_at: CREATED,
    version: 1,
    total: Math.round(total_price * 100),
    departs_at: Date.parse(segment?.departure_at ?? ''),
    agency_id: 'acme-travel',
    agent_id: 'agt_5f2c9e1b7a3d4c6e8f0a1b2c',
    travel_class: 'ECONOMY',
    seats: 1,
    segments: [{ flight_number: segment?.flight_number, date: '2026-12-01', bucket: 0 }],
    ...change,
  };
}

let sequence = 100;
/** One stream record as Lambda delivers it: INSERT (no old image), MODIFY (both) or REMOVE (old only). */
function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  images: { old?: Record<string, unknown>; new?: Record<string, unknown> },
): StreamRecord {
  const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true });
  sequence += 100;
  return {
    eventID: `e${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_795_000_000,
      Keys: marshall(bookingKey(BOOKING_ID)),
      ...(images.new && { NewImage: image(images.new) }),
      ...(images.old && { OldImage: image(images.old) }),
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 2048,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: 'arn:aws:dynamodb:eu-west-1:123456789012:table/bookings/stream/2026-11-24T00:00:00.000',
  } as StreamRecord;
}

const held = stored({ status: 'HELD', payment_required_by: DEADLINE });
const pending = stored({ status: 'PENDING', pnr: null, supplier: { name: 'duffel' } });
const confirmed = stored();

/** The event's type, id, time, version and status, or undefined. */
function summary(r: StreamRecord) {
  const event = bookingEventOf(r);
  return (
    event && {
      type: event.type,
      id: event.id,
      occurredAt: event.occurredAt,
      version: event.booking.version,
      status: event.booking.status,
      deadline: event.paymentRequiredBy,
    }
  );
}
const idOf = (version: number) => eventId(BOOKING_ID, { version, status: 'ignored' });

describe('one event per booking state change (bookingEventOf)', () => {
  it('a new hold is booking.held, with its deadline', () => {
    expect(summary(record('INSERT', { new: held }))).toEqual({
      type: 'booking.held',
      id: idOf(1),
      occurredAt: CREATED,
      version: 1,
      status: 'HELD',
      deadline: DEADLINE,
    });
  });

  it('a hold the sweep expires is booking.expired, at its deadline', () => {
    const expired = { ...held, status: 'EXPIRED', updated_at: DEADLINE, version: 2 };
    expect(summary(record('MODIFY', { old: held, new: expired }))).toEqual({
      type: 'booking.expired',
      id: idOf(2),
      occurredAt: DEADLINE,
      version: 2,
      status: 'EXPIRED',
      deadline: DEADLINE,
    });
  });

  it('a confirmed hold is booking.confirmed, its deadline gone', () => {
    const { payment_required_by: _gone, ...rest } = held;
    const now = { ...rest, status: 'CONFIRMED', updated_at: LATER, version: 2 };
    expect(summary(record('MODIFY', { old: held, new: now }))).toEqual({
      type: 'booking.confirmed',
      id: idOf(2),
      occurredAt: LATER,
      version: 2,
      status: 'CONFIRMED',
      deadline: undefined,
    });
  });

  it('a new PENDING booking is no event', () => {
    expect(bookingEventOf(record('INSERT', { new: pending }))).toBeUndefined();
  });

  it('PENDING settled to CONFIRMED is booking.confirmed, with the PNR it got', () => {
    const now = {
      ...pending,
      status: 'CONFIRMED',
      pnr: 'QXBTRV',
      supplier: { name: 'duffel', order_id: 'ord_1' },
      updated_at: LATER,
      version: 2,
    };
    const event = bookingEventOf(record('MODIFY', { old: pending, new: now }));
    expect(event).toMatchObject({ type: 'booking.confirmed', id: idOf(2), occurredAt: LATER });
    expect(event?.booking).toMatchObject({ pnr: 'QXBTRV', status: 'CONFIRMED', version: 2 });
  });

  it('PENDING settled to FAILED is booking.failed, without a PNR', () => {
    const now = { ...pending, status: 'FAILED', updated_at: LATER, version: 2 };
    const event = bookingEventOf(record('MODIFY', { old: pending, new: now }));
    expect(event).toMatchObject({ type: 'booking.failed', id: idOf(2), occurredAt: LATER });
    expect(event?.booking).toMatchObject({ pnr: null, status: 'FAILED', version: 2 });
  });

  it('a change that leaves the status alone is no event', () => {
    const calling = { ...pending, hold_call: { started_at: LATER } };
    expect(bookingEventOf(record('MODIFY', { old: pending, new: calling }))).toBeUndefined();
    const renamed = { ...confirmed, contact: { ...example.contact, phone: '+447700900999' } };
    expect(bookingEventOf(record('MODIFY', { old: confirmed, new: renamed }))).toBeUndefined();
  });

  it('a change of a confirmed booking’s flights is booking.changed, with the new flight and its changes', () => {
    const by = { id: 'agt_5f2c9e1b7a3d4c6e8f0a1b2c', name: 'Ada Agent' };
    const segments = example.flight.outbound.segments;
    const change = {
      at: LATER,
      by,
      from: segments,
      to: segments,
      change_total: { amount: 25, currency: 'EUR' },
    };
    const changed = { ...confirmed, updated_at: LATER, version: 2, changes: [change] };
    const event = bookingEventOf(record('MODIFY', { old: confirmed, new: changed }));
    expect(event).toMatchObject({ type: 'booking.changed', id: idOf(2), occurredAt: LATER });
    expect(event?.booking).toMatchObject({ status: 'CONFIRMED', version: 2, changes: [change] });
    // The same changes again (another write that leaves them) is no event.
    expect(
      bookingEventOf(record('MODIFY', { old: changed, new: { ...changed, version: 3 } })),
    ).toBeUndefined();
  });

  it('a new confirmed booking is booking.confirmed at version 1', () => {
    expect(summary(record('INSERT', { new: confirmed }))).toEqual({
      type: 'booking.confirmed',
      id: idOf(1),
      occurredAt: CREATED,
      version: 1,
      status: 'CONFIRMED',
      deadline: undefined,
    });
  });

  it('a cancellation is booking.cancelled, at its time', () => {
    const by = { id: 'agt_5f2c9e1b7a3d4c6e8f0a1b2c', name: 'Ada Agent' };
    const now = { ...confirmed, status: 'CANCELLED', cancelled_at: LATER, cancelled_by: by };
    const cancelled = { ...now, updated_at: LATER, version: 2 };
    const event = bookingEventOf(record('MODIFY', { old: confirmed, new: cancelled }));
    expect(event).toMatchObject({ type: 'booking.cancelled', id: idOf(2), occurredAt: LATER });
    expect(event?.booking).toMatchObject({ cancelled_at: LATER, cancelled_by: by, version: 2 });
  });

  it('each change of one booking has its own id; a redelivered record has the same one', () => {
    const changes = [
      record('INSERT', { new: held }),
      record('MODIFY', { old: held, new: { ...held, status: 'EXPIRED', updated_at: DEADLINE, version: 2 } }),
    ];
    const ids = changes.map((r) => bookingEventOf(r)?.id);
    expect(new Set(ids).size).toBe(2);
    expect(bookingEventOf(structuredClone(changes[1] as StreamRecord))?.id).toBe(ids[1]);
  });

  it('never carries the agency’s notes: a note is no event, and a later change’s Booking leaves them out', () => {
    const by = { id: 'agt_5f2c9e1b7a3d4c6e8f0a1b2c', name: 'Ada Agent' };
    const notes = [
      { id: 'note_01KAQZ9X3M4T7V2B8C6N0PQRSW', text: 'VIP: call first', created_at: LATER, created_by: by },
    ];
    const noted = { ...held, notes };
    expect(bookingEventOf(record('MODIFY', { old: held, new: noted }))).toBeUndefined();
    const confirmedNoted = {
      ...noted,
      status: 'CONFIRMED',
      payment_required_by: undefined,
      updated_at: LATER,
      version: 2,
    };
    const event = bookingEventOf(record('MODIFY', { old: noted, new: confirmedNoted }));
    expect(event?.type).toBe('booking.confirmed');
    expect(event?.booking).not.toHaveProperty('notes');
    expect(JSON.stringify(event)).not.toContain('VIP');
  });

  it('a removal, or an item that is not a booking, is no event', () => {
    expect(bookingEventOf(record('REMOVE', { old: confirmed }))).toBeUndefined();
    const other = { pk: 'HELD_BOOKINGS', sk: `${DEADLINE}#${BOOKING_ID}`, status: 'HELD' };
    expect(bookingEventOf(record('INSERT', { new: other }))).toBeUndefined();
  });
});
