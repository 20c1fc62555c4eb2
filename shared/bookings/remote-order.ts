import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isoSeconds } from '../clock.ts';
import { cancellationReasons, slotted, type TransactItem } from '../db/transaction.ts';
import { type ApiError, IdempotencyInProgressError, OfferExpiredError } from '../errors.ts';
import type {
  OrderOutcome,
  RecordSlot,
  RemoteOrdering,
  SupplierOffer,
  SupplierOrder,
} from '../supply/port.ts';
import { bookedOfferRelease } from './booked-offer-item.ts';
import { type BookingDeps, bookingView } from './booking.ts';
import type { BookingRecord, BookingView } from './booking-item.ts';
import { settleBookingUpdate } from './booking-updates.ts';
import { type IdempotencyLock, replacedOutcomeUpdate, storableOutcome } from './idempotency-item.ts';
import { pendingRemoval } from './pending-item.ts';
import { newPnrItem } from './pnr-item.ts';
import { recordWrites } from './record-writes.ts';

/**
 * Booking with a remote supplier, exactly once across the outside call (docs/API.md §4.5):
 *
 * 1. one transaction writes the booking PENDING, lists it for the sweep, marks the offer booked (one
 *    booking per offer) and completes the Idempotency-Key with the PENDING answer (one per key);
 * 2. the supplier is asked once for the order, carrying our booking id in its metadata;
 * 3. the answer settles the booking: CONFIRMED with the airline's PNR, or FAILED (the offer freed
 *    again) on a definite refusal; with no trustworthy answer it stays PENDING, answered 202, and the
 *    sweep settles it by finding the order — never by ordering again.
 */
export async function orderRemotely(
  deps: BookingDeps,
  booking: {
    record: BookingRecord;
    offer: SupplierOffer;
    ordering: RemoteOrdering;
    lock: IdempotencyLock | undefined;
  },
): Promise<BookingView> {
  const { offer, ordering, lock } = booking;
  const pending: BookingRecord = {
    ...booking.record,
    status: 'PENDING',
    pnr: null,
    supplier: { name: deps.supplier.name },
    offer_identity: offer.identity,
  };
  const writes = recordWrites(deps.tableName, pending, offer, lock, {
    status: 202,
    data: bookingView(pending),
  });
  const transaction = slotted<RecordSlot>(writes);
  try {
    await deps.db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
  } catch (error) {
    const failed = cancellationReasons(error, transaction.slots);
    if (failed?.conditionFailed('offer')) throw new OfferExpiredError();
    if (failed?.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
    throw error;
  }

  const outcome = await ordering.order({
    bookingId: pending.booking_id,
    passengers: pending.passengers,
    contact: pending.contact,
  });
  const settled = await settlePending(deps, pending, outcome, lock);
  if (outcome.kind === 'refused') throw outcome.error;
  return bookingView(settled);
}

/**
 * Settles a PENDING booking with what the supplier said: CONFIRMED with the order, FAILED (and the
 * offer freed) on a refusal; unchanged when the answer is unknown. One transaction, conditioned on the
 * booking still being PENDING, so a request and the sweep cannot both settle it; the loser answers the
 * booking as the winner left it. `lock`: the request's Idempotency-Key, whose answer follows.
 */
export async function settlePending(
  deps: BookingDeps,
  pending: BookingRecord,
  outcome: OrderOutcome,
  lock?: IdempotencyLock,
): Promise<BookingRecord> {
  if (outcome.kind === 'unknown') return pending;
  const now = isoSeconds(deps.clock.now());
  const settled: BookingRecord =
    outcome.kind === 'ordered'
      ? confirmedRecord(deps, pending, outcome.order, now)
      : { ...pending, status: 'FAILED', updated_at: now, version: (pending.version ?? 1) + 1 };
  const answer =
    outcome.kind === 'ordered' ? { status: 201, data: bookingView(settled) } : refusal(outcome.error);
  const items: TransactItem[] = [
    {
      Update: settleBookingUpdate(deps.tableName, pending.booking_id, {
        status: settled.status === 'CONFIRMED' ? 'CONFIRMED' : 'FAILED',
        at: now,
        ...(settled.pnr && { pnr: settled.pnr }),
        supplier: settled.supplier ?? { name: deps.supplier.name },
      }),
    },
    { Delete: pendingRemoval(deps.tableName, pending) },
    ...(settled.pnr ? [{ Put: newPnrItem(deps.tableName, { ...settled, pnr: settled.pnr }) }] : []),
    ...(outcome.kind === 'refused' && pending.offer_identity
      ? [{ Delete: bookedOfferRelease(deps.tableName, pending.offer_identity, pending.booking_id) }]
      : []),
    ...(lock && answer ? [{ Update: replacedOutcomeUpdate(deps.tableName, lock, answer) }] : []),
  ];
  await deps.db.send(new TransactWriteCommand({ TransactItems: items }));
  return settled;
}

function confirmedRecord(
  deps: BookingDeps,
  pending: BookingRecord,
  order: SupplierOrder,
  now: string,
): BookingRecord {
  return {
    ...pending,
    status: 'CONFIRMED',
    pnr: order.bookingReference,
    supplier: { name: deps.supplier.name, order_id: order.orderId },
    updated_at: now,
    version: (pending.version ?? 1) + 1,
  };
}

/** The answer a refused order leaves under its Idempotency-Key. */
function refusal(error: ApiError) {
  return storableOutcome(error);
}
