import type { TableHandle } from '../db/client.ts';
import { returnSeatsUpdate } from '../flights/inventory-item.ts';
import type { InTableSupplier, SuppliedBooking } from './port.ts';

/**
 * The built-in network's orders: nothing outside to call. A cancel (or a hold's expiry) puts the seats
 * back on sale on every segment they were taken on, in the same transaction as the booking's own update.
 */
export function networkOrders(
  deps: Pick<TableHandle, 'tableName'>,
): Pick<InTableSupplier, 'name' | 'orders'> {
  return {
    name: 'network',
    orders: {
      kind: 'in-table',
      seatsBack: (booking: SuppliedBooking) =>
        (booking.segments ?? []).map((segment) => ({
          Update: returnSeatsUpdate(
            deps.tableName,
            { flightNumber: segment.flight_number, date: segment.date },
            booking.travel_class,
            booking.seats,
            segment.seats,
          ),
        })),
    },
  };
}
