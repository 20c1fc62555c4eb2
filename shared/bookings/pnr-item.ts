import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';

/**
 * The PNR item (`PNR#<pnr>` / `PNR`): reserves a PNR for one booking. Written with
 * `attribute_not_exists`, which is what makes PNRs unique; read to find a booking by its PNR.
 */
export const pnrKey = (pnr: string) => ({ pk: `PNR#${pnr}`, sk: 'PNR' });

/** The Put that reserves `record.pnr` for the booking; fails if another booking holds it. */
export function newPnrItem(
  tableName: string,
  record: { pnr: string; booking_id: string; agency_id: string },
) {
  return {
    TableName: tableName,
    Item: { ...pnrKey(record.pnr), booking_id: record.booking_id, agency_id: record.agency_id },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** The booking id a PNR belongs to, if any. */
export async function findBookingIdByPnr(store: TableHandle, pnr: string): Promise<string | undefined> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: pnrKey(pnr) }));
  return typeof Item?.booking_id === 'string' ? Item.booking_id : undefined;
}
