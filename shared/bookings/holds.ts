import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../clock.ts';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { transact, unslotted } from '../db/transaction.ts';
import { HoldNotAvailableError } from '../errors.ts';
import { expiredRecord, isLateHold, isPastDeadline, writerClock } from './entity/booking.ts';
import { expireWrites, releaseWrites } from './entity/booking-ends.ts';
import { type BookingRecord, changeStamp, readBooking } from './entity/booking-item.ts';
import { expireHoldUpdate } from './entity/booking-updates.ts';
import { heldRemoval, listLateHolds } from './entity/held-item.ts';
import type { OrderDeps } from './flow.ts';

/** A hold on the built-in network lasts this long (docs/API.md §4.4)… */
export const HOLD_MINUTES = 24 * 60;
/** …and ends no later than this long before the first departure. */
export const HOLD_ENDS_BEFORE_DEPARTURE_MS = 48 * 3600_000;
/** A hold shorter than this (or than the configured length, if shorter) is not offered. */
const SHORTEST_HOLD_MS = 3600_000;

/**
 * The deadline of a hold made at `now` on a flight first departing at `departsAt` (epoch ms, whole
 * seconds): `holdMinutes` later (24 hours unless configured), and no later than 48 hours before the
 * departure. 409 HOLD_NOT_AVAILABLE when that leaves less than an hour (or than the configured length).
 *
 * @example holdDeadline(Date.parse('2026-12-24T08:00:00Z'), Date.parse('2026-12-01T10:00:00Z')) // 2026-12-02T10:00:00Z
 */
export function holdDeadline(departsAt: number, now: number, holdMinutes = HOLD_MINUTES): number {
  const length = holdMinutes * 60_000;
  const deadline = Math.min(now + length, departsAt - HOLD_ENDS_BEFORE_DEPARTURE_MS);
  if (deadline - now < Math.min(length, SHORTEST_HOLD_MS)) throw new HoldNotAvailableError();
  return Math.floor(deadline / 1000) * 1000;
}

/** Holds a sweep expires at most, so one run stays well inside its function's timeout. */
const SWEEP_BATCH = 100;

/**
 * Expires a late hold: EXPIRED and its seats back on sale in one transaction conditioned on the booking
 * still being HELD past its deadline by this writer's clock as it writes (the deadline rule, booking.ts),
 * so a confirm, a cancel, a read, another sweep or a retry can race it and exactly one of them changes
 * the booking. Answers whether this call expired it.
 */
export async function expireHold(deps: OrderDeps, record: BookingRecord): Promise<boolean> {
  const deadline = record.payment_required_by;
  if (!isPastDeadline(record, deps.clock.now()) || deadline === undefined) return false;
  const { orders } = deps.supplier;
  const expire = async (leftCall?: string) => {
    try {
      // In the table, the seats go back in the same transaction; a remote supplier lets an unpaid hold
      // lapse by itself at its deadline, so only the booking changes (it gives no seats back).
      const late = { ...record, payment_required_by: deadline };
      const writes = expireWrites(
        deps.tableName,
        late,
        writerClock(deps.clock),
        orders.seatsBack(record),
        leftCall,
      );
      // Someone else changed the booking first (confirmed in time, cancelled, or expired it): nothing to do.
      return await transact(deps.db, () => unslotted(writes), {
        written: () => true,
        cancelled: (reasons, error) => {
          if (reasons.any('ConditionalCheckFailed')) return false;
          throw error;
        },
      });
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  };
  // A remote hold with a payment that may have gone through ends as its supplier says (flow.ts).
  const end = await deps.orderFlow.endLateHold(deps, record);
  return end.expire ? expire(end.leftCall) : false;
}

/** How often a read tries to store a lapse that keeps losing its condition before answering what is stored. */
const READ_ATTEMPTS = 3;

/**
 * The booking a read (get, list) answers for `record`: as stored — and a late hold's lapse is stored
 * before it is answered. A HELD booking past its deadline reads EXPIRED only once a write conditioned on
 * the deadline rule (booking.ts) has made it so, so no confirm can win after a client was told EXPIRED;
 * a write that loses its condition (a confirm or cancel got there first) is followed by a read of what
 * won. Only the booking changes here: its seats and listing entry are left for the sweep
 * (releaseLapsedHold), so a read needs no supplier and no inventory.
 */
export async function readAsSettled(
  deps: TableHandle & { readonly clock: Clock },
  record: BookingRecord,
): Promise<BookingRecord> {
  let current = record;
  for (let attempt = 0; attempt < READ_ATTEMPTS && isLateHold(current, deps.clock.now()); attempt++) {
    const { payment_required_by: deadline = '' } = current;
    const expiry = expireHoldUpdate(
      deps.tableName,
      { booking_id: current.booking_id, payment_required_by: deadline, ...changeStamp(current) },
      writerClock(deps.clock),
    );
    try {
      await deps.db.send(new UpdateCommand(expiry));
      return expiredRecord(current);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      current = (await readBooking(deps, current.booking_id)) ?? current;
    }
  }
  return current;
}

/**
 * The sweep's end of a lapse a read stored (readAsSettled): the seats back on sale and the listing
 * entry gone, in one transaction conditioned on the entry, so the seats come back exactly once.
 */
async function releaseLapsedHold(
  deps: OrderDeps,
  record: BookingRecord,
  listed: { booking_id: string; payment_required_by: string },
): Promise<boolean> {
  const writes = releaseWrites(deps.tableName, listed, deps.supplier.orders.seatsBack(record));
  return transact(deps.db, () => unslotted(writes), {
    written: () => true,
    cancelled: (reasons, error) => {
      if (reasons.any('ConditionalCheckFailed')) return false;
      throw error;
    },
  });
}

/**
 * The sweep's hold work (docs/API.md §4.4): every hold whose deadline has passed becomes EXPIRED and
 * gives its seats back (a lapse a read already stored gets its seats back here). One Query of the holds
 * listing, then per late hold one read and one transaction. Answers how many it expired. A crash
 * anywhere leaves each hold either HELD (or EXPIRED by a read) and listed — the next sweep finishes it —
 * or EXPIRED and unlisted.
 */
export async function expireLateHolds(deps: OrderDeps): Promise<number> {
  let expired = 0;
  for (const late of await listLateHolds(deps, deps.clock.now(), SWEEP_BATCH)) {
    const record = await readBooking(deps, late.booking_id);
    if (record?.status === 'HELD') {
      if (await expireHold(deps, record)) expired++;
    } else if (record?.status === 'EXPIRED') {
      if (await releaseLapsedHold(deps, record, late)) expired++;
    } else {
      // Every other change away from HELD unlists the hold in its own transaction: a listing left behind
      // (the booking edited by hand) would otherwise be read again every minute.
      await deps.db.send(new DeleteCommand(heldRemoval(deps.tableName, late)));
    }
  }
  return expired;
}
