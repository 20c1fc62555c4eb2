import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { agencyPartition, ttlFromMillis } from '../db/table.ts';
import { HOUR_MS } from './otp-challenge-item.ts';

/**
 * The agency code budget item (`AGENCY#<agency_id>` / `CODES#<hours since the epoch>`): how many codes
 * the agency's agents were sent in that clock hour. One per agency and hour, expiring a day later;
 * written only by send-otp, before a code is delivered (docs/API.md §3.4: an hourly budget per agency).
 */
const agencyCodeBudgetKey = (agencyId: string, hour: number) => ({
  pk: agencyPartition(agencyId),
  sk: `CODES#${hour}`,
});

type BudgetResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Spends one code of the agency's budget for the hour of `now`, unless `perHour` are spent already:
 * one conditional UpdateItem, so parallel sends cannot overspend it. When spent, the seconds until the
 * next hour's budget opens.
 */
export async function spendAgencyCode(
  store: TableHandle,
  agencyId: string,
  now: number,
  perHour: number,
): Promise<BudgetResult> {
  const hour = Math.floor(now / HOUR_MS);
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: agencyCodeBudgetKey(agencyId, hour),
        UpdateExpression: 'ADD sent :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(sent) OR sent < :budget',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':budget': perHour,
          ':ttl': ttlFromMillis((hour + 25) * HOUR_MS),
        },
      }),
    );
    return { ok: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return { ok: false, retryAfterSeconds: Math.ceil(((hour + 1) * HOUR_MS - now) / 1000) };
  }
}
