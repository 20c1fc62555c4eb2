/**
 * The single table's shape: key names, the one GSI and the TTL attribute. The CDK stack, the local
 * bootstrap and every item module read it from here, so they cannot disagree. Item keys are not here:
 * each stored item's module (`shared/<domain>/*-item.ts`) owns its keys (README, "Stored items").
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

/** The one GSI's name, for queries. */
export const GSI1 = tableDefinition.indexes[0].name;

/**
 * An agency's partition: its counters live under it, and its bookings are listed under it in GSI1.
 * One spelling for both, so an agency's data reads as one place in the table.
 */
export const agencyPartition = (agencyId: string) => `AGENCY#${agencyId}`;

/** Item keys of the items that have no module of their own yet. */
export const keys = {
  /** Seats sold on one flight-date, per cabin; exists only once something sold. */
  inventory: (flightNumber: string, date: string) => ({
    pk: `FLIGHT#${flightNumber}#${date}`,
    sk: 'INVENTORY',
  }),
  booking: (bookingId: string) => ({ pk: `BOOKING#${bookingId}`, sk: 'BOOKING' }),
  /** Reserves a PNR: `attribute_not_exists` makes PNRs unique. */
  pnr: (pnr: string) => ({ pk: `PNR#${pnr}`, sk: 'PNR' }),
  /** Marks an offer as booked (offers are sealed ids, not items): an offer books once. */
  bookedOffer: (offerHash: string) => ({ pk: `OFFER#${offerHash}`, sk: 'BOOKED' }),
  idempotency: (agentId: string, key: string) => ({ pk: `IDEMPOTENCY#${agentId}#${key}`, sk: 'REQUEST' }),
} as const;

/** GSI1 partitions. */
export const gsi1 = {
  /** An agency's bookings, sorted by `<created_at>#<booking_id>`. */
  agency: agencyPartition,
} as const;

/** Epoch seconds, the unit DynamoDB TTL expects. */
export function ttlFromMillis(epochMillis: number): number {
  return Math.ceil(epochMillis / 1000);
}
