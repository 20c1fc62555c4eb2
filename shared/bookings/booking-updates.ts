import { bookingKey } from './booking-item.ts';

/**
 * The state changes of a stored booking (docs/API.md §4.3), each an Update conditioned on the state it
 * leaves, that moves `updated_at` and `version` with it.
 */

/** The Update that cancels a booking, only while it is CONFIRMED at `version`. */
export function cancelBookingUpdate(
  tableName: string,
  booking: { booking_id: string; version: number },
  cancelled: { at: string; by: { id: string; name: string }; refund?: { amount: number; currency: string } },
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: `SET #status = :cancelled, cancelled_at = :at, cancelled_by = :by, updated_at = :at, version = :version${cancelled.refund ? ', refund = :refund' : ''}`,
    ConditionExpression: '#status = :confirmed',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':cancelled': 'CANCELLED',
      ':confirmed': 'CONFIRMED',
      ':at': cancelled.at,
      ':by': cancelled.by,
      ':version': booking.version + 1,
      ...(cancelled.refund && { ':refund': cancelled.refund }),
    },
  };
}

/**
 * The Update that settles a PENDING booking to CONFIRMED (with its PNR and order) or FAILED; only from
 * PENDING, so a sweep and a request settling the same booking cannot both apply.
 */
export function settleBookingUpdate(
  tableName: string,
  bookingId: string,
  settled: {
    status: 'CONFIRMED' | 'FAILED';
    at: string;
    pnr?: string;
    supplier: { name: string; order_id?: string };
  },
) {
  return {
    TableName: tableName,
    Key: bookingKey(bookingId),
    UpdateExpression: `SET #status = :status, updated_at = :at, version = version + :one, supplier = :supplier${settled.pnr ? ', pnr = :pnr' : ''}`,
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':status': settled.status,
      ':pending': 'PENDING',
      ':at': settled.at,
      ':one': 1,
      ':supplier': settled.supplier,
      ...(settled.pnr && { ':pnr': settled.pnr }),
    },
  };
}
