import { cancellationCodes } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import { bucketLimits } from '../flights/fares.ts';
import { soldAttribute } from '../flights/inventory.ts';
import type { OpenedOffer } from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { BookingRecord, BookingView } from './booking.ts';
import { completionUpdate, type IdempotencyLock } from './idempotency.ts';

/** What each item of the booking transaction does. */
export type Slot = 'seats' | 'booking' | 'pnr' | 'offer' | 'idempotency';

/** Why a booking transaction was cancelled, per named slot (`seats`: one code per segment). */
export interface CancellationReasons {
  readonly seats: string[];
  readonly booking: string | undefined;
  readonly pnr: string | undefined;
  readonly offer: string | undefined;
  readonly idempotency: string | undefined;
  /** Every code, for "any item hit this". */
  readonly all: string[];
}

/**
 * The reasons a cancelled transaction gives, by slot; undefined for any other error.
 *
 * @example cancellationReasons(error, ['seats', 'booking', 'pnr', 'offer'])?.offer // 'ConditionalCheckFailed'
 */
export function cancellationReasons(error: unknown, slots: readonly Slot[]): CancellationReasons | undefined {
  const all = cancellationCodes(error);
  if (!all) return undefined;
  const at = (slot: Slot) => all[slots.indexOf(slot)];
  return {
    seats: slots.flatMap((slot, i) => (slot === 'seats' ? [all[i] ?? 'None'] : [])),
    booking: at('booking'),
    pnr: at('pnr'),
    offer: at('offer'),
    idempotency: slots.includes('idempotency') ? at('idempotency') : undefined,
    all,
  };
}

/**
 * The items of the one booking transaction, and the name of each item's slot: DynamoDB reports why a
 * transaction was cancelled per item, by position, and the slots turn those positions back into names.
 */
export function bookingTransaction(
  tableName: string,
  record: BookingRecord,
  flights: readonly ScheduledFlight[],
  quote: OpenedOffer,
  lock: IdempotencyLock | undefined,
  view: BookingView,
) {
  const takeSeats = flights.map((flight, i) => {
    const capacity = flight.leg.aircraft.seats[quote.travelClass] ?? 0;
    const limit = bucketLimits(quote.travelClass, capacity)[quote.segments[i]?.bucket ?? 0] ?? 0;
    return {
      Update: {
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
      },
    };
  });
  const items = [
    ...takeSeats,
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
    {
      Put: {
        TableName: tableName,
        Item: { ...keys.pnr(record.pnr), booking_id: record.booking_id, agency_id: record.agency_id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
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
    ...(lock ? [{ Update: completionUpdate(tableName, lock, { status: 201, data: view }) }] : []),
  ];
  const slots: Slot[] = [
    ...takeSeats.map(() => 'seats' as const),
    'booking',
    'pnr',
    'offer',
    ...(lock ? ['idempotency' as const] : []),
  ];
  return { items, slots };
}
