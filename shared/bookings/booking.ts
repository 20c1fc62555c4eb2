import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { toMajor } from '../money.ts';
import type { FlightSupplier } from '../supply/port.ts';
import { type BookingRecord, type BookingView, changeStamp } from './booking-item.ts';

/** What booking code needs: the table, the clock, and the supplier flights come from. */
export interface BookingDeps extends TableHandle {
  readonly clock: Clock;
  readonly supplier: FlightSupplier;
}

/** The Booking resource of docs/API.md §4.2 for a stored booking. */
export function bookingView(record: BookingRecord): BookingView {
  return {
    booking_id: record.booking_id,
    pnr: record.pnr,
    status: record.status,
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
    ...changeStamp(record),
  };
}
