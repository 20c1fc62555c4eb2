/**
 * The single table's shape: key names, the one GSI and the TTL attribute. The CDK stack, the local
 * bootstrap and every repository read it from here, so they cannot disagree.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

/** Item keys, one function per item type (docs/decisions.md explains the shared OTP item). */
export const keys = {
  agent: (identifier: string) => ({ pk: `AGENT#${identifier}`, sk: 'PROFILE' }),
  /** One item per identifier, registered or not: send throttle plus the current code. */
  otpChallenge: (identifier: string) => ({ pk: `OTP#${identifier}`, sk: 'CHALLENGE' }),
  /**
   * What every authenticated request reads, in one GetItem: the agent's agency, name, role, whether
   * active, since when its tokens are valid, and the tokens it logged out.
   */
  sessionState: (agentId: string) => ({ pk: `AGENTID#${agentId}`, sk: 'SESSION' }),
  /** How many active ADMINs an agency has: the condition that keeps the last one. */
  agencyAdmins: (agencyId: string) => ({ pk: `AGENCY#${agencyId}`, sk: 'ADMINS' }),
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
  /** Every agent, sorted by `<agency_id>#<identifier>`: the operator's and each agency's listing. */
  agents: 'AGENTS',
  /** An agency's bookings, sorted by `<created_at>#<booking_id>`. */
  agency: (agencyId: string) => `AGENCY#${agencyId}`,
} as const;

/** Epoch seconds, the unit DynamoDB TTL expects. */
export function ttlFromMillis(epochMillis: number): number {
  return Math.ceil(epochMillis / 1000);
}
