import type { TransactItem } from '../../db/transaction.ts';
import type { BookingRecord, BookingView, Cancellation } from './booking-item.ts';
import { changeStamp } from './booking-item.ts';
import {
  cancelBookingUpdate,
  cancelOrderUpdate,
  changeFlightsUpdate,
  confirmHoldUpdate,
  confirmPaidHoldUpdate,
  expireHoldUpdate,
} from './booking-updates.ts';
import { callRemoval, type ListedCall } from './call-item.ts';
import { heldRemoval } from './held-item.ts';
import { completionUpdate, type IdempotencyLock } from './idempotency-item.ts';

/**
 * The writes that change a booking after create (part of its home, booking-item.ts), each route's
 * listed in one function: confirm, cancel, a late hold's expiry, and the sweep's release of a lapse a
 * read stored. Apart from create's and the settling of a PENDING booking (booking-writes.ts), so that
 * a read, cancel or confirm carries none of theirs.
 */

/** A supplier call named by its claim (`id`) or, left behind, by its start. */
type Call = { id: string } | { started_at: string };

/**
 * Confirm's writes: the hold CONFIRMED (by the deadline rule at `at`; or, `paid`, at the amount its
 * remote supplier was paid under `call`), off the holds listing, and with an Idempotency-Key its answer.
 */
export function confirmWrites(
  tableName: string,
  record: BookingRecord,
  confirmed: {
    at: string;
    view: BookingView;
    /** The request's Idempotency-Key, if any: `view` is stored as its answer (idempotency-item.ts). */
    lock?: IdempotencyLock | undefined;
    paid?: { total: number; call: Call };
  },
): TransactItem[] {
  const { version } = changeStamp(record);
  const { paid } = confirmed;
  const update = paid
    ? confirmPaidHoldUpdate(tableName, { ...record, version, total: paid.total }, confirmed.at, paid.call)
    : confirmHoldUpdate(tableName, { ...record, version }, confirmed.at);
  const { lock, view } = confirmed;
  return [
    { Update: update },
    { Delete: heldRemoval(tableName, record) },
    ...(lock ? [{ Update: completionUpdate(tableName, lock, { status: 200, data: view }) }] : []),
  ];
}

/**
 * Cancel's writes for a booking read CONFIRMED or HELD: CANCELLED (a hold off its listing) with the
 * supplier's `seats` back, in the table's own way or under a remote supplier's call — `holdClaim`, the
 * claim under which a hold's order was cancelled; `orderCall`, the call that cancelled a CONFIRMED
 * booking's order (taken off the supplier-calls listing with it).
 */
export function cancelWrites(
  tableName: string,
  record: BookingRecord & { status: 'CONFIRMED' | 'HELD' },
  cancelled: Cancellation,
  under: { holdClaim?: string; orderCall?: { call: Call; listed: ListedCall }; seats?: TransactItem[] },
): TransactItem[] {
  const { version } = changeStamp(record);
  const { orderCall } = under;
  const update = orderCall
    ? cancelOrderUpdate(tableName, { booking_id: record.booking_id, version }, cancelled, orderCall.call)
    : cancelBookingUpdate(
        tableName,
        { booking_id: record.booking_id, version, status: record.status },
        cancelled,
        under.holdClaim,
      );
  return [
    { Update: update },
    ...(record.status === 'HELD' && record.payment_required_by
      ? [{ Delete: heldRemoval(tableName, record) }]
      : []),
    ...(orderCall ? [{ Delete: callRemoval(tableName, orderCall.listed) }] : []),
    ...(under.seats ?? []),
  ];
}

/**
 * The expiry's writes for a late hold (by the deadline rule at `at`; `leftCall`: a remote hold's call its
 * supplier says did not pay): EXPIRED, off the holds listing, its supplier's `seats` back.
 */
export function expireWrites(
  tableName: string,
  record: BookingRecord & { payment_required_by: string },
  at: string,
  seats: TransactItem[],
  leftCall?: string,
): TransactItem[] {
  const hold = { booking_id: record.booking_id, payment_required_by: record.payment_required_by };
  return [
    { Update: expireHoldUpdate(tableName, { ...hold, ...changeStamp(record) }, at, leftCall) },
    { Delete: heldRemoval(tableName, hold) },
    ...seats,
  ];
}

/**
 * The sweep's end of a lapse a read stored: the listing entry gone, only if still there, with the
 * supplier's `seats` back, so the seats come back exactly once.
 */
export const releaseWrites = (
  tableName: string,
  listed: { booking_id: string; payment_required_by: string },
  seats: TransactItem[],
): TransactItem[] => [
  { Delete: { ...heldRemoval(tableName, listed), ConditionExpression: 'attribute_exists(pk)' } },
  ...seats,
];

/** What each write of a change does, by name (db/transaction.ts slots). */
type ChangeSlot = 'booking' | 'seats-back' | 'seats' | 'idempotency';

/**
 * A change's writes (docs/API.md §4.9), named: the booking's new flights (CONFIRMED at the version
 * quoted), the supplier's seats (the old ones back, the new ones taken), and with an Idempotency-Key
 * its answer.
 */
export function changeWrites(
  tableName: string,
  record: BookingRecord,
  changed: Parameters<typeof changeFlightsUpdate>[2] & {
    view: BookingView;
    lock?: IdempotencyLock | undefined;
  },
  seats: { back: TransactItem[]; taken: TransactItem[] },
): [ChangeSlot, TransactItem][] {
  const { view, lock, ...update } = changed;
  const booking = { booking_id: record.booking_id, ...changeStamp(record) };
  return [
    ['booking', { Update: changeFlightsUpdate(tableName, booking, update) }],
    ...seats.back.map((item): [ChangeSlot, TransactItem] => ['seats-back', item]),
    ...seats.taken.map((item): [ChangeSlot, TransactItem] => ['seats', item]),
    ...(lock
      ? [
          ['idempotency', { Update: completionUpdate(tableName, lock, { status: 200, data: view }) }] as [
            ChangeSlot,
            TransactItem,
          ],
        ]
      : []),
  ];
}
