import type { TransactItem } from '../db/transaction.ts';
import type { RecordSlot } from '../supply/port.ts';
import { bookedOfferMarker } from './booked-offer-item.ts';
import { type BookingRecord, type BookingView, newBookingItem } from './booking-item.ts';
import { newHeldItem } from './held-item.ts';
import { completionUpdate, type IdempotencyLock } from './idempotency-item.ts';
import { newPendingItem } from './pending-item.ts';
import { newPnrItem } from './pnr-item.ts';

/**
 * The booking's own writes, each in its named slot (db/transaction.ts): the booking, its PNR (once it
 * has one), the offer-booked marker, the PENDING or HELD listing for the sweep, and with an Idempotency-Key the
 * stored answer. An in-table supplier adds its seats to the same transaction.
 */
export function recordWrites(
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
