import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import { retrying, TRY_AGAIN } from '../db/retry.ts';
import { keys } from '../db/table.ts';
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
    chunks.map(async (chunk) => {
      let pending: Record<string, unknown>[] = chunk.map((f) => keys.inventory(f.flightNumber, f.date));
      await retrying(async () => {
        const { Responses, UnprocessedKeys } = await store.db.send(
          new BatchGetCommand({
            RequestItems: {
              [store.tableName]: {
                Keys: pending,
                ProjectionExpression: 'pk, #sold',
                ExpressionAttributeNames: { '#sold': attribute },
              },
            },
          }),
        );
        for (const item of Responses?.[store.tableName] ?? []) {
          sold.set(String(item.pk).slice('FLIGHT#'.length), Number(item[attribute] ?? 0));
        }
        pending = UnprocessedKeys?.[store.tableName]?.Keys ?? [];
        return pending.length > 0 ? TRY_AGAIN : undefined;
      });
    }),
  );
  return sold;
}
