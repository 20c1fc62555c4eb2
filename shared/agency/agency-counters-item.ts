import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import { agencyPartition } from '../db/table.ts';

/**
 * The agency counters item (`AGENCY#<agency_id>` / `ADMINS`): how many active ADMINs the agency has
 * (the condition that keeps the last one, written only inside agent changes: agent-changes.ts), how
 * many webhook endpoints it has (the cap of 5), and its display name, set by the operator.
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

/**
 * The Update adding `delta` to the agency's count of webhook endpoints, in the transaction that creates
 * or deletes one: an increase needs the count below `max` (409 LIMIT_REACHED otherwise), so parallel
 * creations cannot pass the cap.
 */
export function webhookCountChange(tableName: string, agencyId: string, delta: 1 | -1, max: number) {
  return {
    TableName: tableName,
    Key: agencyCountersKey(agencyId),
    UpdateExpression: 'ADD webhooks :delta',
    ...(delta > 0 && { ConditionExpression: 'attribute_not_exists(webhooks) OR webhooks < :max' }),
    ExpressionAttributeValues: { ':delta': delta, ...(delta > 0 && { ':max': max }) },
  };
}

/**
 * The Update naming the agency (`name`, shown to travellers in their notices); set by the operator's CLI
 * (`npm run agents -- agency-name`). Without one, notices name the agency by its id.
 */
export function agencyNameUpdate(tableName: string, agencyId: string, name: string) {
  return {
    TableName: tableName,
    Key: agencyCountersKey(agencyId),
    UpdateExpression: 'SET #name = :name',
    ExpressionAttributeNames: { '#name': 'name' },
    ExpressionAttributeValues: { ':name': name },
  };
}

/** The agency's display name: its `name`, or its id when the operator gave none. */
export async function readAgencyName(store: TableHandle, agencyId: string): Promise<string> {
  const { Item } = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: agencyCountersKey(agencyId),
      ProjectionExpression: '#name',
      ExpressionAttributeNames: { '#name': 'name' },
    }),
  );
  const parsed = AgencyName.safeParse(Item?.name);
  return parsed.success ? parsed.data : agencyId;
}

/** An agency's display name: 1-100 characters. */
export const AgencyName = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
