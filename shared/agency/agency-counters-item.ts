import { agencyPartition } from '../db/table.ts';

/**
 * The agency counters item (`AGENCY#<agency_id>` / `ADMINS`): how many active ADMINs the agency has,
 * the condition that keeps the last one. Written only inside agent changes (agent-changes.ts).
 */
export const agencyCountersKey = (agencyId: string) => ({ pk: agencyPartition(agencyId), sk: 'ADMINS' });

/** The Update adding `delta` to the agency's count of active ADMINs; a decrease needs another to remain. */
export function adminCountChange(tableName: string, agencyId: string, delta: number) {
  return {
    TableName: tableName,
    Key: agencyCountersKey(agencyId),
    UpdateExpression: 'ADD active_admins :delta',
    ...(delta < 0 && { ConditionExpression: 'active_admins > :one' }),
    ExpressionAttributeValues: { ':delta': delta, ...(delta < 0 && { ':one': 1 }) },
  };
}
