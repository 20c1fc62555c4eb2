/**
 * The single table's shape: key names, the one GSI and the TTL attribute. The CDK stack, the local
 * bootstrap and every item module read it from here, so they cannot disagree. Item keys are not here:
 * each stored item's module (`shared/<domain>/*-item.ts`, each named in the README map) owns its keys.
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

/**
 * An event's partition: its notice guard and its webhook deliveries (shared/events/) live under it, so
 * everything the service did about one event reads as one place in the table.
 */
export const eventPartition = (eventId: string) => `EVENT#${eventId}`;

/** Epoch seconds, the unit DynamoDB TTL expects. */
export function ttlFromMillis(epochMillis: number): number {
  return Math.ceil(epochMillis / 1000);
}
