import { gsi1, keys } from '../db/table.ts';
import { type SlottedTransaction, slotted } from '../db/transaction.ts';
import { bucketLimits } from '../flights/fares.ts';
import { soldAttribute } from '../flights/inventory.ts';
import type { OpenedOffer } from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { BookingRecord, BookingView } from './booking.ts';
import { completionUpdate, type IdempotencyLock } from './idempotency.ts';

/** What each item of the booking transaction does (`seats`: one item per segment). */
export type Slot = 'seats' | 'booking' | 'pnr' | 'offer' | 'idempotency';

/** The items of the one booking transaction, each in its named slot (db/transaction.ts). */
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
    const update = {
      TableName: tableName,
      Key: keys.inventory(flight.flightNumber, flight.date),
      // Nested buckets: the quoted bucket still sells while sold + seats stays within its limit.
      UpdateExpression: 'SET #sold = if_not_exists(#sold, :zero) + :seats',
      ConditionExpression: 'attribute_not_exists(#sold) OR #sold <= :maxSoldBefore',
      ExpressionAttributeNames: { '#sold': soldAttribute(quote.travelClass) },
      ExpressionAttributeValues: {
        ':zero': 0,
        ':seats': record.seats,
        ':maxSoldBefore': limit - record.seats,
      },
    };
    return ['seats', { Update: update }] as const;
  });
  return slotted<Slot>([
    ...takeSeats,
    [
      'booking',
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.booking(record.booking_id),
            gsi1pk: gsi1.agency(record.agency_id),
            gsi1sk: `${record.created_at}#${record.booking_id}`,
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [
      'pnr',
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.pnr(record.pnr), booking_id: record.booking_id, agency_id: record.agency_id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [
      'offer',
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.bookedOffer(quote.identity),
            booking_id: record.booking_id,
            ttl: quote.expiresAt + 3600,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    lock
      ? ['idempotency', { Update: completionUpdate(tableName, lock, { status: 201, data: view }) }]
      : undefined,
  ]);
}
