import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isoSeconds } from '../clock.ts';
import { cancellationCodes, isConditionFailed } from '../db/client.ts';
import { HoldNotAvailableError } from '../errors.ts';
import type { CancellingSupplier } from '../supply/port.ts';
import type { BookingDeps } from './booking.ts';
import { type BookingRecord, changeStamp, readBooking } from './booking-item.ts';
import { expireHoldUpdate } from './booking-updates.ts';
import { heldRemoval, listLateHolds } from './held-item.ts';

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
 * still being HELD past its deadline, so a confirm, a cancel, another sweep or a retry can race it and
 * exactly one of them changes the booking. Answers whether this call expired it.
 */
export async function expireHold(
  deps: BookingDeps<CancellingSupplier>,
  record: BookingRecord,
  now: number,
): Promise<boolean> {
  const deadline = record.payment_required_by;
  if (record.status !== 'HELD' || deadline === undefined || Date.parse(deadline) > now) return false;
  const hold = { booking_id: record.booking_id, payment_required_by: deadline };
  const updates = (leftCall?: string) => [
    {
      Update: expireHoldUpdate(
        deps.tableName,
        { ...hold, ...changeStamp(record) },
        isoSeconds(now),
        leftCall,
      ),
    },
    { Delete: heldRemoval(deps.tableName, hold) },
  ];
  const { cancelling } = deps.supplier;
  const expire = async (leftCall?: string) => {
    try {
      // In the table, the seats go back in the same transaction; a remote supplier lets an unpaid hold
      // lapse by itself at its deadline, so only the booking changes.
      if (cancelling.kind === 'in-table') await cancelling.cancel(record, updates(leftCall));
      else await deps.db.send(new TransactWriteCommand({ TransactItems: updates(leftCall) }));
      return true;
    } catch (error) {
      // Someone else changed the booking first (confirmed in time, cancelled, or expired it): nothing to do.
      if (cancellationCodes(error)?.includes('ConditionalCheckFailed') || isConditionFailed(error))
        return false;
      throw error;
    }
  };
  // A remote hold with a payment that may have gone through: its supplier says which way it ends.
  if (record.hold_call && cancelling.kind === 'remote' && process.env.BUNDLED_SUPPLIER !== 'network') {
    const { settleLateRemoteHold } = await import('./remote-hold.ts');
    return settleLateRemoteHold(deps, cancelling, record, expire);
  }
  return expire();
}

/**
 * The sweep's hold work (docs/API.md §4.4): every hold whose deadline has passed becomes EXPIRED and
 * gives its seats back. One Query of the holds listing, then per late hold one read and one transaction.
 * Answers how many it expired. A crash anywhere leaves each hold either HELD and listed (the next sweep
 * expires it) or EXPIRED and unlisted.
 */
export async function expireLateHolds(deps: BookingDeps<CancellingSupplier>): Promise<number> {
  const now = deps.clock.now();
  let expired = 0;
  for (const late of await listLateHolds(deps, now, SWEEP_BATCH)) {
    const record = await readBooking(deps, late.booking_id);
    if (record?.status === 'HELD') {
      if (await expireHold(deps, record, now)) expired++;
    } else {
      // Every change away from HELD unlists the hold in its own transaction: a listing left behind
      // (the booking edited by hand) would otherwise be read again every minute.
      await deps.db.send(new DeleteCommand(heldRemoval(deps.tableName, late)));
    }
  }
  return expired;
}
