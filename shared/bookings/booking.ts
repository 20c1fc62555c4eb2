import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { keys } from '../db/table.ts';
import type { TravelClass } from '../flights/cabins.ts';
import type { FlightView } from '../flights/flight-view.ts';
import type { LocalDate } from '../flights/local-time.ts';
import type { Passenger } from './request.ts';

/** What booking code needs: the table, the clock, and the key offers are sealed with. */
export interface BookingDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

export type BookingStatus = 'CONFIRMED' | 'CANCELLED';

/** A booking as stored (the item's attributes besides its keys). */
export interface BookingRecord {
  booking_id: string;
  pnr: string;
  status: BookingStatus;
  /** Cents. */
  total: number;
  currency: string;
  created_at: string;
  cancelled_at?: string;
  /** Who booked and who cancelled, as they were named then (absent on bookings made before). */
  created_by?: { id: string; name: string };
  cancelled_by?: { id: string; name: string };
  /** First departure, epoch ms: cancellable until then. */
  departs_at: number;
  agency_id: string;
  agent_id: string;
  travel_class: TravelClass;
  /** Seats held on every segment (infants hold none). */
  seats: number;
  /** Where the seats were taken, for returning them on cancel. */
  segments: { flight_number: string; date: LocalDate; bucket: number }[];
  flight: FlightView;
  passengers: Passenger[];
  contact: { email: string; phone: string };
}

/** The Booking resource of docs/API.md §4.2. */
export function bookingView(record: BookingRecord) {
  return {
    booking_id: record.booking_id,
    pnr: record.pnr,
    status: record.status,
    total_price: record.total / 100,
    currency: record.currency,
    created_at: record.created_at,
    ...(record.cancelled_at && { cancelled_at: record.cancelled_at }),
    ...(record.created_by && { created_by: record.created_by }),
    ...(record.cancelled_by && { cancelled_by: record.cancelled_by }),
    flight: record.flight,
    passengers: record.passengers,
    contact: record.contact,
  };
}

export type BookingView = ReturnType<typeof bookingView>;

/** The booking with `bookingId` if it belongs to `agencyId`; another agency's is as absent as none. */
export async function findBooking(
  store: TableHandle,
  bookingId: string,
  agencyId: string,
): Promise<BookingRecord | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.booking(bookingId), ConsistentRead: true }),
  );
  const record = Item as (BookingRecord & { pk: string }) | undefined;
  return record && record.agency_id === agencyId ? record : undefined;
}

/** The booking id a PNR belongs to, if any. */
export async function findBookingIdByPnr(store: TableHandle, pnr: string): Promise<string | undefined> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: keys.pnr(pnr) }));
  return typeof Item?.booking_id === 'string' ? Item.booking_id : undefined;
}
