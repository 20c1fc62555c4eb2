import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { toMajor } from '../money.ts';
import type { SupplierName } from '../supply/port.ts';
import { type BookingRecord, type BookingView, changeStamp } from './booking-item.ts';

/**
 * What booking code needs: the table, the clock, and the supplier flights come from — each route takes
 * the part of the port it uses (create: offers; cancel and the sweep: cancelling).
 */
export interface BookingDeps<
  Supplier extends { readonly name: SupplierName } = { readonly name: SupplierName },
> extends TableHandle {
  readonly clock: Clock;
  readonly supplier: Supplier;
  /** `HOLD_MINUTES`: how long a new hold lasts, when not the rule of docs/API.md §4.4. */
  readonly config: { readonly HOLD_MINUTES?: number | undefined };
}

/** Whether `record` is a hold whose deadline has passed at `now`. */
export const isPastDeadline = (record: Pick<BookingRecord, 'status' | 'payment_required_by'>, now: number) =>
  record.status === 'HELD' &&
  record.payment_required_by !== undefined &&
  Date.parse(record.payment_required_by) <= now;

/**
 * Whether `record` is a hold whose deadline has passed at `now`: it reads as EXPIRED at once, though the
 * sweep may not have given its seats back yet (docs/API.md §4.4). A remote hold with a payment under
 * way, or one whose outcome is unknown, is not: it reads HELD until its supplier says (remote-hold.ts).
 */
export const isLateHold = (
  record: Pick<BookingRecord, 'status' | 'payment_required_by' | 'hold_call'>,
  now: number,
) => isPastDeadline(record, now) && record.hold_call === undefined;

/**
 * The Booking resource of docs/API.md §4.2 for a stored booking, as it stands at `now`: a late hold
 * is answered as the EXPIRED booking the sweep will store (one version on, changed at its deadline).
 */
export function bookingView(record: BookingRecord, now?: number): BookingView {
  const late = now !== undefined && isLateHold(record, now);
  const stamp = changeStamp(record);
  return {
    booking_id: record.booking_id,
    pnr: record.pnr,
    status: late ? 'EXPIRED' : record.status,
    total_price: toMajor(record.total, record.currency),
    currency: record.currency,
    created_at: record.created_at,
    ...(record.cancelled_at && { cancelled_at: record.cancelled_at }),
    ...(record.created_by && { created_by: record.created_by }),
    ...(record.cancelled_by && { cancelled_by: record.cancelled_by }),
    flight: record.flight,
    passengers: record.passengers,
    contact: record.contact,
    ...(record.supplier && { supplier: record.supplier }),
    ...(record.refund && { refund: record.refund }),
    ...(record.payment_required_by && { payment_required_by: record.payment_required_by }),
    ...(late && record.payment_required_by
      ? { updated_at: record.payment_required_by, version: stamp.version + 1 }
      : stamp),
  };
}

/** The Booking resource of `record` (CONFIRMED or HELD as read) once `cancelled` has been stored. */
export function cancelledView(
  record: BookingRecord,
  cancelled: { at: string; by: { id: string; name: string }; refund?: { amount: number; currency: string } },
): BookingView {
  return bookingView({
    ...record,
    status: 'CANCELLED',
    payment_required_by: undefined,
    cancelled_at: cancelled.at,
    cancelled_by: cancelled.by,
    ...(cancelled.refund && { refund: cancelled.refund }),
    updated_at: cancelled.at,
    version: changeStamp(record).version + 1,
  });
}
