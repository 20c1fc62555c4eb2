import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import type { BookingRecord, BookingView } from './booking-item.ts';

/** What booking code needs: the table, the clock, and the key offers are sealed with. */
export interface BookingDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

/** The Booking resource of docs/API.md §4.2 for a stored booking. */
export function bookingView(record: BookingRecord): BookingView {
  return {
    booking_id: record.booking_id,
    pnr: record.pnr,
    status: record.status,
    total_price: record.total / 100,
    currency: record.currency,
    created_at: record.created_at,
    version: record.version ?? 1,
    updated_at: record.updated_at ?? record.cancelled_at ?? record.created_at,
    ...(record.cancelled_at && { cancelled_at: record.cancelled_at }),
    ...(record.created_by && { created_by: record.created_by }),
    ...(record.cancelled_by && { cancelled_by: record.cancelled_by }),
    flight: record.flight,
    passengers: record.passengers,
    contact: record.contact,
  };
}
