import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../../db/client.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';

/**
 * The PNR item (`PNR#<pnr>` / `PNR`): reserves a PNR for one booking. Written with
 * `attribute_not_exists`, which is what makes PNRs unique; read to find a booking by its PNR.
 */
export const pnrKey = (pnr: string) => ({ pk: `PNR#${pnr}`, sk: 'PNR' });

const PnrItem = itemSchema(() =>
  z.object({
    booking_id: z.string(),
    /** The booking's agency, so a PNR of another agency is answered without reading the booking. */
    agency_id: z.optional(z.string()),
  }),
);

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

/**
 * The booking id a PNR belongs to when it may be `agencyId`'s; undefined for an unknown PNR and for
 * another agency's, with the same single read. A PNR item written without `agency_id` (none is now)
 * gives its booking id, and the booking's own agency decides.
 */
export async function findBookingIdByPnr(
  store: TableHandle,
  pnr: string,
  agencyId: string,
): Promise<string | undefined> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.tableName, Key: pnrKey(pnr) }));
  if (!Item) return undefined;
  const item = parseItem('PNR', PnrItem(), Item);
  return item.agency_id === undefined || item.agency_id === agencyId ? item.booking_id : undefined;
}
