import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import type { TransactItem } from '../db/transaction.ts';
import { returnSeatsUpdate } from '../flights/inventory-item.ts';
import type { CancellingSupplier, SuppliedBooking } from './port.ts';

/**
 * The built-in network's cancel (and a hold's expiry): the booking's own updates and the seats back on
 * sale, in one transaction.
 */
export function networkCancelling(deps: TableHandle): CancellingSupplier {
  return {
    name: 'network',
    cancelling: {
      kind: 'in-table',
      cancel: async (booking: SuppliedBooking, updates: readonly TransactItem[]) => {
        await deps.db.send(
          new TransactWriteCommand({
            TransactItems: [
              ...updates,
              // The seats go back on sale on every segment they were taken on.
              ...(booking.segments ?? []).map((segment) => ({
                Update: returnSeatsUpdate(
                  deps.tableName,
                  { flightNumber: segment.flight_number, date: segment.date },
                  booking.travel_class,
                  booking.seats,
                ),
              })),
            ],
          }),
        );
      },
    },
  };
}
