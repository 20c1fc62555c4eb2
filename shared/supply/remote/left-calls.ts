import { type BookingDeps, CALL_LEASE_MS, isPastDeadline } from '../../bookings/entity/booking.ts';
import { clearLeftCall } from '../../bookings/entity/booking-calls.ts';
import { type BookingRecord, readBooking } from '../../bookings/entity/booking-item.ts';
import { type ListedCall, listCallsStartedBefore, unlistCall } from '../../bookings/entity/call-item.ts';
import type { LeftCallsResult } from '../../bookings/flow.ts';
import type { Logger } from '../../log.ts';
import { NOTHING_STATED, type RemoteOrders } from '../port.ts';
import { settleCancelled } from './cancel.ts';
import { settleLeftChange } from './change.ts';
import { confirmPaid } from './hold.ts';

/** Calls a sweep settles at most, so one run stays well inside its function's timeout. */
const SWEEP_BATCH = 25;

/** A call still running (its claim held within the lease) is its request's to settle. */
const isLive = (call: { id?: string | undefined; started_at: string } | undefined, now: number) =>
  call?.id !== undefined && Date.parse(call.started_at) > now - CALL_LEASE_MS;

/**
 * The sweep's part for calls to a remote supplier that changed a booking but whose answer was lost, or
 * whose function died (docs/API.md §4.5): once a call's lease has passed, its order is read and the
 * booking settled to what the supplier did — a cancelled order's booking CANCELLED, a paid hold
 * CONFIRMED, a confirmed change stored on its booking — or the call cleared when the supplier did nothing. Never by calling the supplier again.
 * Run every minute, so a booking is settled within 2–3 minutes of its call. A late hold's call is left to
 * the hold expiry (holds.ts), which asks the same question.
 */
export async function settleLeftCalls(
  deps: BookingDeps & { log: Logger },
  orders: RemoteOrders,
): Promise<LeftCallsResult> {
  const result: LeftCallsResult = { cancelled: 0, confirmed: 0, changed: 0, cleared: 0, waiting: 0 };
  const now = deps.clock.now();
  for (const listed of await listCallsStartedBefore(deps, now - CALL_LEASE_MS, SWEEP_BATCH)) {
    const record = await readBooking(deps, listed.booking_id);
    const changing = record?.status === 'CONFIRMED' && !record.cancel_call ? record.change_call : undefined;
    const call = changing ?? (record?.status === 'CONFIRMED' ? record.cancel_call : record?.hold_call);
    if (!record || !call || !(record.status === 'CONFIRMED' || record.status === 'HELD')) {
      // Settled by its request, or it never claimed (another call was under way): only the listing remains.
      await unlistCall(deps, listed);
      continue;
    }
    if (isLive(call, now) || isPastDeadline(record, now)) continue;
    try {
      const outcome = changing
        ? await settleLeftChange(deps, orders, record)
        : record.status === 'CONFIRMED'
          ? (await settleLeftCancel(deps, orders, record, listed))
            ? 'cancelled'
            : 'cleared'
          : await settleLeftPayment(deps, orders, record);
      result[outcome]++;
      await unlistCall(deps, listed);
    } catch (error) {
      result.waiting++;
      deps.log.warn('sweep: supplier call left unsettled', {
        booking_id: record.booking_id,
        reason: (error as Error).name,
      });
    }
  }
  if (result.cancelled + result.confirmed + result.cleared + result.waiting > 0)
    deps.log.info('sweep: supplier calls', { ...result });
  return result;
}

/**
 * A hold whose payment call was left, before its deadline: paid at the supplier → CONFIRMED at the amount
 * paid; not paid → the call cleared, the booking HELD as it was (a confirm may pay it).
 */
async function settleLeftPayment(
  deps: BookingDeps,
  orders: RemoteOrders,
  record: BookingRecord,
): Promise<'confirmed' | 'cleared'> {
  const call = record.hold_call;
  if (!call) return 'cleared';
  const order = await orders.readOrder(record.supplier?.order_id ?? '');
  try {
    if (!order.awaitingPayment && !order.cancelled) {
      await confirmPaid(deps, record, order, { started_at: call.started_at });
      return 'confirmed';
    }
    await clearLeftCall(deps, record.booking_id, { attribute: 'hold_call', started_at: call.started_at });
  } catch (error) {
    // A request claimed or settled it meanwhile: it asks the supplier itself.
    if (!String((error as Error).name).includes('TransactionCanceled')) throw error;
  }
  return 'cleared';
}

/**
 * A CONFIRMED booking whose cancellation call was left behind. The
 * order says: cancelled → CANCELLED with its refund, for the agent who asked; not cancelled → the call
 * is cleared and the booking stays CONFIRMED (the cancel never happened; the agent may cancel again).
 * Answers whether the booking was cancelled.
 */
async function settleLeftCancel(
  deps: BookingDeps,
  orders: RemoteOrders,
  record: BookingRecord,
  listed: ListedCall,
): Promise<boolean> {
  const call = record.cancel_call;
  if (!call) return false;
  const order = await orders.readOrder(record.supplier?.order_id ?? '');
  if (order.cancelled) {
    await settleCancelled(
      deps,
      record,
      { started_at: call.started_at },
      call.by,
      order.cancellation ?? NOTHING_STATED,
      listed,
    );
    return true;
  }
  // A request claimed it meanwhile (nothing cleared): it asks the supplier itself.
  await clearLeftCall(deps, record.booking_id, { attribute: 'cancel_call', started_at: call.started_at });
  return false;
}
