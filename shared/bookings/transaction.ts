import { type SlottedTransaction, slotted } from '../db/transaction.ts';
import { bucketLimits } from '../flights/fares.ts';
import { takeSeatsUpdate } from '../flights/inventory-item.ts';
import type { OpenedOffer } from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import { bookedOfferMarker } from './booked-offer-item.ts';
import { type BookingRecord, type BookingView, newBookingItem } from './booking-item.ts';
import { completionUpdate, type IdempotencyLock } from './idempotency-item.ts';
import { newPnrItem } from './pnr-item.ts';

/** What each item of the booking transaction does (`seats`: one item per segment). */
export type Slot = 'seats' | 'booking' | 'pnr' | 'offer' | 'idempotency';

/**
 * The items of the one booking transaction, each in its named slot (db/transaction.ts): the seats in
 * the quoted bucket on every segment, the booking, its PNR, the offer-booked marker and, with an
 * Idempotency-Key, the stored answer.
 */
export function bookingTransaction(
  tableName: string,
  record: BookingRecord,
  flights: readonly ScheduledFlight[],
  quote: OpenedOffer,
  lock: IdempotencyLock | undefined,
  view: BookingView,
): SlottedTransaction<Slot> {
  const takeSeats = flights.map((flight, i) => {
    const capacity = flight.leg.aircraft.seats[quote.travelClass] ?? 0;
    const limit = bucketLimits(quote.travelClass, capacity)[quote.segments[i]?.bucket ?? 0] ?? 0;
    const update = takeSeatsUpdate(tableName, flight, quote.travelClass, record.seats, limit - record.seats);
    return ['seats', { Update: update }] as const;
  });
  return slotted<Slot>([
    ...takeSeats,
    ['booking', { Put: newBookingItem(tableName, record) }],
    ['pnr', { Put: newPnrItem(tableName, record) }],
    ['offer', { Put: bookedOfferMarker(tableName, quote, record.booking_id) }],
    lock
      ? ['idempotency', { Update: completionUpdate(tableName, lock, { status: 201, data: view }) }]
      : undefined,
  ]);
}
