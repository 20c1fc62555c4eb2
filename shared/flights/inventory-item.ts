import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import { retrying, TRY_AGAIN } from '../db/retry.ts';
import { MalformedItemError } from '../db/stored-item.ts';
import { cabinCode, type TravelClass } from './cabins.ts';
import type { LocalDate } from './local-time.ts';

/** BatchGetItem reads at most this many keys per call. */
export const BATCH_GET_LIMIT = 100;

/** A flight on a date: the unit inventory is kept for. */
export interface FlightDate {
  readonly flightNumber: string;
  readonly date: LocalDate;
}

export const flightDateKey = (f: FlightDate) => `${f.flightNumber}#${f.date}`;

/**
 * The inventory item of one flight-date (`FLIGHT#<flight number>#<date>` / `INVENTORY`): seats sold
 * per cabin, one attribute each (`sold_Y`, `sold_J`, …). It exists only once something sold: no
 * item is zero seats sold.
 */
const PARTITION = 'FLIGHT#';
export const inventoryKey = (flightNumber: string, date: LocalDate) => ({
  pk: `${PARTITION}${flightDateKey({ flightNumber, date })}`,
  sk: 'INVENTORY',
});

/** The inventory attribute holding a cabin's sold seats: `sold_Y`, `sold_J`, … */
export const soldAttribute = (travelClass: TravelClass) => `sold_${cabinCode[travelClass]}`;

/** Seats sold per flight-date in one cabin; flight-dates that never sold are absent (zero). */
export type SoldSeats = ReadonlyMap<string, number>;

/**
 * Reads the sold seats of `travelClass` for `flights`, BatchGetItem in chunks of 100, the chunks in
 * parallel. Keys DynamoDB leaves unprocessed (under throttling) are asked for again (db/retry.ts).
 */
export async function readSoldSeats(
  store: TableHandle,
  flights: readonly FlightDate[],
  travelClass: TravelClass,
): Promise<SoldSeats> {
  const attribute = soldAttribute(travelClass);
  const sold = new Map<string, number>();
  const chunks: FlightDate[][] = [];
  for (let i = 0; i < flights.length; i += BATCH_GET_LIMIT)
    chunks.push(flights.slice(i, i + BATCH_GET_LIMIT));
  await Promise.all(
    chunks.map((chunk) =>
      readInventory(store, chunk, attribute, false, (key, seats = 0) => {
        if (typeof seats !== 'number') return false;
        sold.set(key, seats);
        return true;
      }),
    ),
  );
  return sold;
}

/** The inventory attribute holding the designators of the seats chosen on a flight-date (a string set). */
export const TAKEN_SEATS = 'taken_seats';

/** The chosen seats sold per flight-date (`flightDateKey`); flight-dates with none are absent. */
type TakenSeats = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Reads the seats chosen on `flights` (at most 100: one offer's segments), in one consistent
 * BatchGetItem: a seat map shows what a booking would meet.
 */
export async function readTakenSeats(
  store: TableHandle,
  flights: readonly FlightDate[],
): Promise<TakenSeats> {
  const taken = new Map<string, Set<string>>();
  if (flights.length === 0) return taken;
  await readInventory(store, flights, TAKEN_SEATS, true, (key, seats = new Set()) => {
    if (!(seats instanceof Set)) return false;
    taken.set(key, seats as Set<string>);
    return true;
  });
  return taken;
}

/**
 * One BatchGetItem of at most 100 flight-dates' `attribute`, unprocessed keys asked for again; `take`
 * gets each item's flight-date key and value, and answers false for a malformed one.
 */
async function readInventory(
  store: TableHandle,
  flights: readonly FlightDate[],
  attribute: string,
  consistent: boolean,
  take: (key: string, value: unknown) => boolean,
): Promise<void> {
  let pending: Record<string, unknown>[] = flights.map((f) => inventoryKey(f.flightNumber, f.date));
  await retrying(async () => {
    const { Responses, UnprocessedKeys } = await store.db.send(
      new BatchGetCommand({
        RequestItems: {
          [store.tableName]: {
            Keys: pending,
            ...(consistent && { ConsistentRead: true }),
            ProjectionExpression: 'pk, #value',
            ExpressionAttributeNames: { '#value': attribute },
          },
        },
      }),
    );
    for (const item of Responses?.[store.tableName] ?? []) {
      const { pk, [attribute]: value } = item;
      if (typeof pk !== 'string' || !pk.startsWith(PARTITION) || !take(pk.slice(PARTITION.length), value))
        throw new MalformedItemError('malformed inventory item');
    }
    pending = UnprocessedKeys?.[store.tableName]?.Keys ?? [];
    return pending.length > 0 ? TRY_AGAIN : undefined;
  });
}

/**
 * The Update that takes `seats` in a cabin of a flight-date, in one step with the price: nested
 * buckets, so the quoted bucket still sells while the cabin has sold at most `maxSoldBefore`.
 */
export function takeSeatsUpdate(
  tableName: string,
  flight: FlightDate,
  travelClass: TravelClass,
  seats: number,
  maxSoldBefore: number,
  chosen: readonly string[] = [],
) {
  const update = soldSeatsUpdate(tableName, flight, travelClass, {
    UpdateExpression: 'SET #sold = if_not_exists(#sold, :zero) + :seats',
    ConditionExpression: 'attribute_not_exists(#sold) OR #sold <= :maxSoldBefore',
    ExpressionAttributeValues: { ':zero': 0, ':seats': seats, ':maxSoldBefore': maxSoldBefore } as Record<
      string,
      unknown
    >,
  });
  if (chosen.length === 0) return update;
  // The chosen seats join the same Update: none of them may be taken already (one item write in all).
  const free = chosen.map((_, i) => `NOT contains(#taken, :seat${i})`).join(' AND ');
  return {
    ...update,
    UpdateExpression: `${update.UpdateExpression} ADD #taken :chosen`,
    ConditionExpression: `(${update.ConditionExpression}) AND ${free}`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#taken': TAKEN_SEATS },
    ExpressionAttributeValues: {
      ...update.ExpressionAttributeValues,
      ':chosen': new Set(chosen),
      ...Object.fromEntries(chosen.map((seat, i) => [`:seat${i}`, seat])),
    },
  };
}

/** The Update that puts `seats` back on sale: below the limits of the nested buckets, cheapest first. */
export function returnSeatsUpdate(
  tableName: string,
  flight: FlightDate,
  travelClass: TravelClass,
  seats: number,
  chosen: readonly string[] = [],
) {
  const update = soldSeatsUpdate(tableName, flight, travelClass, {
    UpdateExpression: 'SET #sold = #sold - :seats',
    ConditionExpression: '#sold >= :seats',
    ExpressionAttributeValues: { ':seats': seats } as Record<string, unknown>,
  });
  if (chosen.length === 0) return update;
  return {
    ...update,
    UpdateExpression: `${update.UpdateExpression} DELETE #taken :chosen`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#taken': TAKEN_SEATS },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':chosen': new Set(chosen) },
  };
}

/** An Update of the sold seats of one cabin (`#sold`) on a flight-date. */
function soldSeatsUpdate<W extends { UpdateExpression: string; ConditionExpression: string }>(
  tableName: string,
  flight: FlightDate,
  travelClass: TravelClass,
  write: W,
) {
  return {
    TableName: tableName,
    Key: inventoryKey(flight.flightNumber, flight.date),
    ExpressionAttributeNames: { '#sold': soldAttribute(travelClass) },
    ...write,
  };
}
