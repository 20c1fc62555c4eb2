import { type BookingDeps, bookingView } from '../../bookings/entity/booking.ts';
import { shownPending } from '../../bookings/entity/booking-calls.ts';
import {
  type BookingRecord,
  type BookingView,
  changeStamp,
  findBooking,
} from '../../bookings/entity/booking-item.ts';
import { createWrites, settleWrites, takeBackWrites } from '../../bookings/entity/booking-writes.ts';
import {
  type IdempotencyLock,
  releaseAnsweredKey,
  storableOutcome,
} from '../../bookings/entity/idempotency-item.ts';
import type { OfferFlow } from '../../bookings/flow.ts';
import { isoSeconds } from '../../clock.ts';
import { TRY_AGAIN } from '../../db/retry.ts';
import { slotted, type TransactItem, transact, unslotted } from '../../db/transaction.ts';
import { IdempotencyInProgressError, OfferExpiredError } from '../../errors.ts';
import type { RecordSlot, RemoteOrdering, RemoteSupplier, SupplierOffer, SupplierOrder } from '../port.ts';

/**
 * Booking with a remote supplier, exactly once across the outside call (docs/API.md §4.5):
 *
 * 1. one transaction writes the booking PENDING, lists it for the sweep, marks the offer booked (one
 *    booking per offer) and completes the Idempotency-Key with the PENDING answer (one per key);
 * 2. the supplier is asked once for the order, carrying our booking id in its metadata;
 * 3. an order settles the booking CONFIRMED with the airline's PNR; a definite "no order" (a refusal,
 *    a rate limit) takes back everything step 1 wrote, so nothing is left half-made and the offer can
 *    be booked again; with no trustworthy answer the booking stays PENDING, answered 202, and the sweep
 *    settles it by finding the order — never by ordering again.
 */
async function orderRemotely(
  deps: BookingDeps,
  booking: {
    record: BookingRecord;
    offer: SupplierOffer;
    ordering: RemoteOrdering;
    lock: IdempotencyLock | undefined;
  },
): Promise<BookingView> {
  const { offer, ordering, lock } = booking;
  // A hold is PENDING like any order until the supplier answers; it keeps our rule's deadline meanwhile.
  const { payment_required_by: holdUntil, ...record } = booking.record;
  const pending: BookingRecord = {
    ...record,
    // Unseen until a client is shown it (shownPending): the first state a client sees is version 1.
    version: 0,
    status: 'PENDING',
    pnr: null,
    supplier: { name: deps.supplier.name },
    offer_identity: offer.identity,
    ...(holdUntil && { hold_until: holdUntil }),
  };
  const writes = createWrites(deps.tableName, pending, offer, lock, {
    status: 202,
    data: bookingView(pending),
  });
  await transact(deps.db, () => slotted<RecordSlot>(writes), {
    written: () => undefined,
    cancelled: (failed, error) => {
      if (failed.conditionFailed('offer')) throw new OfferExpiredError();
      if (failed.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
      throw error;
    },
  });

  const request = {
    bookingId: pending.booking_id,
    passengers: pending.passengers,
    contact: pending.contact,
    ...extrasOrdered(pending),
  };
  const outcome = await (holdUntil ? ordering.orderOnHold(request) : ordering.order(request));
  if (outcome.kind === 'unknown') return bookingView(await shownPending(deps, pending));
  if (outcome.kind === 'refused') {
    await takeBack(deps, pending, lock, outcome.error);
    throw outcome.error;
  }
  try {
    return bookingView(await settlePending(deps, pending, outcome, lock));
  } catch {
    // The order exists but our write failed (or the sweep settled it first): answer the booking as it
    // is now; still PENDING (202) the sweep finds the order by its booking id.
    const current = await findBooking(deps, pending.booking_id, pending.agency_id).catch(() => undefined);
    return bookingView(await shownPending(deps, current ?? pending));
  }
}

/**
 * Takes back a PENDING booking for which no order was made: the booking, its listing and the offer's
 * marker go; the Idempotency-Key keeps a definite answer (4xx) for replays, and is released after a
 * failure (5xx) so that a retry runs afresh.
 */
async function takeBack(
  deps: BookingDeps,
  pending: BookingRecord,
  lock: IdempotencyLock | undefined,
  error: Parameters<typeof storableOutcome>[0],
): Promise<void> {
  const answer = storableOutcome(error);
  const items = takeBackWrites(deps.tableName, pending, lock, answer);
  await transact(deps.db, () => unslotted(items), { written: () => undefined });
  if (lock && !answer) await releaseAnsweredKey(deps, lock);
}

/** What the supplier's records say about a PENDING booking. */
type Settlement = { kind: 'ordered'; order: SupplierOrder } | { kind: 'failed' };

/**
 * A hold's deadline: the earlier of the supplier's (whole seconds) and our own rule's, `holdUntil`
 * (docs/API.md §4.4: the holds listing sorts by it).
 */
function heldUntil(order: SupplierOrder, holdUntil: string): string {
  const supplier = Date.parse(order.paymentRequiredBy ?? '');
  const ours = Date.parse(holdUntil);
  return isoSeconds(Number.isFinite(supplier) ? Math.min(ours, Math.floor(supplier / 1000) * 1000) : ours);
}

/**
 * Settles a PENDING booking: CONFIRMED with the order (HELD with its deadline when it was a hold and the
 * order awaits payment), or FAILED (and the offer freed) when the supplier has no order for it. One
 * transaction, conditioned on the booking still being PENDING at the version read, so a request and the
 * sweep cannot both settle it; a booking shown to a client meanwhile (shownPending) is settled again
 * from the version it was shown at. `lock`: the request's Idempotency-Key, whose answer follows.
 */
export function settlePending(
  deps: BookingDeps,
  pending: BookingRecord,
  settlement: Settlement,
  lock?: IdempotencyLock,
): Promise<BookingRecord> {
  let settling = settledFrom(deps, pending, settlement, lock);
  return transact(deps.db, () => unslotted(settling.items), {
    written: () => settling.settled,
    // Lost to a write of the booking shown meanwhile: read again and settled from what is stored, once.
    cancelled: async (reasons, error): Promise<typeof TRY_AGAIN> => {
      if (!reasons.any('ConditionalCheckFailed') || settling.from !== pending) throw error;
      const current = await findBooking(deps, pending.booking_id, pending.agency_id);
      if (current?.status !== 'PENDING' || current.version === pending.version) throw error;
      settling = settledFrom(deps, current, settlement, lock);
      return TRY_AGAIN;
    },
  });
}

/** The settled booking made from `pending`, and the transaction that stores it if `pending` is still as read. */
function settledFrom(
  deps: BookingDeps,
  pending: BookingRecord,
  settlement: Settlement,
  lock?: IdempotencyLock,
): { from: BookingRecord; settled: BookingRecord; items: TransactItem[] } {
  const now = isoSeconds(deps.clock.now());
  const read = changeStamp(pending).version;
  const version = read + 1;
  const { hold_until: holdUntil, ...unsettled } = pending;
  const deadline =
    settlement.kind === 'ordered' && holdUntil && settlement.order.awaitingPayment
      ? heldUntil(settlement.order, holdUntil)
      : undefined;
  const settled =
    settlement.kind === 'ordered'
      ? {
          ...unsettled,
          status: deadline ? ('HELD' as const) : ('CONFIRMED' as const),
          ...(deadline && { payment_required_by: deadline }),
          pnr: settlement.order.bookingReference,
          supplier: { name: deps.supplier.name, order_id: settlement.order.orderId },
          updated_at: now,
          version,
        }
      : { ...unsettled, status: 'FAILED' as const, updated_at: now, version };
  const supplier = settled.supplier ?? { name: deps.supplier.name };
  const answered = lock && { lock, view: bookingView(settled) };
  return {
    from: pending,
    settled,
    items: settleWrites(deps.tableName, pending, settled, supplier, answered),
  };
}

/** The bags and seats a booking orders with its flights (docs/API.md §4.10), and what it pays in all. */
function extrasOrdered(record: BookingRecord) {
  const seats = record.passengers.flatMap((p, passengerIndex) =>
    (p.seats ?? []).map((s) => ({ passengerIndex, segmentIndex: s.segment_index, designator: s.designator })),
  );
  const services = (record.services ?? []).map((s) => ({ id: s.id, quantity: s.quantity }));
  return seats.length + services.length > 0 ? { total: record.total, services, seats } : {};
}

/** Create's flow: PENDING first, one order call, then settled (order.ts). */
export const remoteOfferFlow = (supplier: Pick<RemoteSupplier, 'openOffer'>): OfferFlow => ({
  open: (flightId) => {
    const offer = supplier.openOffer(flightId);
    return (
      offer && {
        ...offer,
        book: (deps, record, lock) => orderRemotely(deps, { record, offer, ordering: offer.ordering, lock }),
      }
    );
  },
});
