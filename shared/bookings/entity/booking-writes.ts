import type { TransactItem } from '../../db/transaction.ts';
import type { RecordSlot } from '../../supply/port.ts';
import { bookedOfferMarker, bookedOfferRelease } from './booked-offer-item.ts';
import {
  type BookingRecord,
  type BookingView,
  bookingKey,
  changeStamp,
  newBookingItem,
} from './booking-item.ts';
import { settleBookingUpdate } from './booking-updates.ts';
import { newHeldItem } from './held-item.ts';
import {
  completionUpdate,
  type IdempotencyLock,
  replacedOutcomeUpdate,
  type StoredOutcome,
} from './idempotency-item.ts';
import { newPendingItem, pendingRemoval } from './pending-item.ts';
import { newPnrItem } from './pnr-item.ts';

/**
 * Each route's writes of the booking entity (its home: booking-item.ts), listed in one function per
 * route so that what goes into one transaction is read in one place: the booking item's own change
 * (booking-updates.ts) and what changes with it — its PNR, its place in the PENDING, holds and
 * supplier-calls listings, the offer's marker, the Idempotency-Key's answer, the supplier's seats.
 */

/**
 * Create's writes, each in its named slot (db/transaction.ts): the booking, its PNR (once it has one),
 * the offer-booked marker, the PENDING or HELD listing for the sweep, and with an Idempotency-Key the
 * stored answer. An in-table supplier adds its seats to the same transaction.
 */
export function createWrites(
  tableName: string,
  record: BookingRecord,
  offer: { identity: string; expiresAt: number },
  lock: IdempotencyLock | undefined,
  answer: { status: number; data: BookingView },
): (readonly [RecordSlot, TransactItem] | undefined)[] {
  return [
    ['booking', { Put: newBookingItem(tableName, record) }],
    record.pnr === null ? undefined : ['pnr', { Put: newPnrItem(tableName, { ...record, pnr: record.pnr }) }],
    record.status === 'PENDING' ? ['pending', { Put: newPendingItem(tableName, record) }] : undefined,
    record.status === 'HELD' && record.payment_required_by
      ? [
          'held',
          { Put: newHeldItem(tableName, { ...record, payment_required_by: record.payment_required_by }) },
        ]
      : undefined,
    ['offer', { Put: bookedOfferMarker(tableName, offer, record.booking_id) }],
    lock ? ['idempotency', { Update: completionUpdate(tableName, lock, answer) }] : undefined,
  ];
}

/**
 * The writes that settle a PENDING booking (as read: its version is the condition) as `settled`, at
 * `settled.updated_at`: off the PENDING listing, with its PNR, a hold's listing, the offer freed when it
 * FAILED, and with the request's Idempotency-Key `answered.view` as its answer.
 */
export function settleWrites(
  tableName: string,
  pending: BookingRecord,
  settled: BookingRecord & { status: 'CONFIRMED' | 'HELD' | 'FAILED'; updated_at: string },
  supplier: { name: string; order_id?: string },
  answered?: { lock: IdempotencyLock; view: BookingView },
): TransactItem[] {
  const deadline = settled.status === 'HELD' ? settled.payment_required_by : undefined;
  const failed = settled.status === 'FAILED';
  return [
    {
      Update: settleBookingUpdate(tableName, pending.booking_id, {
        version: changeStamp(pending).version,
        status: settled.status,
        at: settled.updated_at,
        ...(deadline && { payment_required_by: deadline }),
        ...(settled.pnr && { pnr: settled.pnr }),
        supplier,
      }),
    },
    { Delete: pendingRemoval(tableName, pending) },
    ...(settled.pnr ? [{ Put: newPnrItem(tableName, { ...settled, pnr: settled.pnr }) }] : []),
    ...(deadline ? [{ Put: newHeldItem(tableName, { ...settled, payment_required_by: deadline }) }] : []),
    ...(failed && pending.offer_identity
      ? [{ Delete: bookedOfferRelease(tableName, pending.offer_identity, pending.booking_id) }]
      : []),
    ...(answered && !failed
      ? [{ Update: replacedOutcomeUpdate(tableName, answered.lock, { status: 201, data: answered.view }) }]
      : []),
  ];
}

/**
 * The writes that take back a PENDING booking for which no order was made: the booking (only while
 * PENDING), its listing and the offer's marker go; the Idempotency-Key keeps `answer` for replays.
 */
export function takeBackWrites(
  tableName: string,
  pending: BookingRecord,
  lock: IdempotencyLock | undefined,
  answer: StoredOutcome | undefined,
): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName,
        Key: bookingKey(pending.booking_id),
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'PENDING' },
      },
    },
    { Delete: pendingRemoval(tableName, pending) },
    ...(pending.offer_identity
      ? [{ Delete: bookedOfferRelease(tableName, pending.offer_identity, pending.booking_id) }]
      : []),
    ...(lock && answer ? [{ Update: replacedOutcomeUpdate(tableName, lock, answer) }] : []),
  ];
}
