import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingDeps } from '../../bookings/entity/booking.ts';
import { findBooking } from '../../bookings/entity/booking-item.ts';
import { listPendingBookings, pendingRemoval } from '../../bookings/entity/pending-item.ts';
import type { OrderFlow, SweepResult } from '../../bookings/flow.ts';
import { cancellationCodes } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import type { RemoteOrders } from '../port.ts';
import { settleLeftCalls } from './left-calls.ts';
import { settlePending } from './order.ts';

/**
 * A PENDING booking with no order at the supplier this long after it was written is FAILED: longer than
 * any order call can run (the function's timeout), with a margin for the supplier finishing an order
 * after our connection closed. The sweep runs every minute, so a booking settles within 5 minutes
 * (docs/API.md §4.5).
 */
const FAIL_AFTER_MS = 3 * 60_000;
/** Bookings settled per run; the rest wait for the next minute. */
const SWEEP_BATCH = 25;

/**
 * Settles every PENDING booking by asking the supplier for the order carrying its booking id — never by
 * ordering again. Found: CONFIRMED with its PNR. Not found after {@link FAIL_AFTER_MS}: FAILED, the offer
 * freed. A supplier that does not answer leaves the booking for the next run. Settling is conditioned
 * on the booking still being PENDING, so a request settling it at the same moment cannot be undone.
 */
async function sweepPendingBookings(
  deps: BookingDeps & { log: Logger },
  orders: RemoteOrders,
): Promise<SweepResult> {
  const result: SweepResult = { confirmed: 0, held: 0, failed: 0, waiting: 0 };
  for (const listed of await listPendingBookings(deps, SWEEP_BATCH)) {
    const booking = await findBooking(deps, listed.booking_id, listed.agency_id);
    if (booking?.status !== 'PENDING') {
      // Settled by its request after this run listed it, or gone: the listing is stale.
      if (booking) await deps.db.send(new DeleteCommand(pendingRemoval(deps.tableName, booking)));
      continue;
    }
    try {
      const order = await orders.findOrder(booking);
      const late = deps.clock.now() - Date.parse(booking.created_at) >= FAIL_AFTER_MS;
      if (!order && !late) {
        result.waiting++;
        continue;
      }
      const settled = await settlePending(
        deps,
        booking,
        order ? { kind: 'ordered', order } : { kind: 'failed' },
      );
      if (settled.status === 'FAILED') result.failed++;
      else if (settled.status === 'HELD') result.held++;
      else result.confirmed++;
    } catch (error) {
      result.waiting++;
      if (!cancellationCodes(error)) {
        deps.log.warn('sweep: booking left pending', {
          booking_id: booking.booking_id,
          reason: (error as Error).name,
        });
      }
    }
  }
  // The sweep's handler logs these counts with the holds it expired: one 'sweep' line a run.
  return result;
}

/** The sweep's part: PENDING bookings and lost answers settled by asking the supplier, never again. */
export const remoteSweeping = (
  orders: RemoteOrders,
): Pick<OrderFlow, 'sweepPending' | 'settleLeftCalls'> => ({
  sweepPending: (deps) => sweepPendingBookings(deps, orders),
  settleLeftCalls: (deps) => settleLeftCalls(deps, orders),
});
