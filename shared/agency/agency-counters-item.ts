import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import { agencyPartition } from '../db/table.ts';

/**
 * The agency counters item (`AGENCY#<agency_id>` / `ADMINS`, named when it held only the first):
 * `active_admins`, the condition that keeps the last active ADMIN; `agents`, the agents registered
 * (active or not, until released), the condition that keeps the agency within `agent_limit` (set by the
 * operator; {@link DEFAULT_AGENT_LIMIT} when absent); `webhooks`, its webhook endpoints (the cap of 5);
 * and its display name `name`, set by the operator. Written only inside agent and webhook changes
 * (agent-changes.ts, events/), and by the operator's `limit`, `migrate` and `agency-name`.
 */
export const agencyCountersKey = (agencyId: string) => ({ pk: agencyPartition(agencyId), sk: 'ADMINS' });

/** How many agents an agency may register unless the operator raised (or lowered) its limit. */
const DEFAULT_AGENT_LIMIT = 50;

/**
 * While the agency has room for one more agent: below its own limit, or below the default without one.
 * DynamoDB compares two attributes of the item, so no read comes first.
 */
const HAS_ROOM =
  '((attribute_not_exists(agent_limit) AND (attribute_not_exists(agents) OR agents < :defaultLimit)) OR (attribute_not_exists(agents) AND agent_limit > :zero) OR agents < agent_limit)';

interface CountChange {
  /** +1 registers an agent (within the limit), -1 releases one. */
  readonly agents?: number;
  /** The change in active ADMINs. */
  readonly admins?: number;
  /** A decrease of active ADMINs keeps at least one (LAST_ADMIN) unless the operator forces it. */
  readonly force?: boolean;
}

/** The one Update of the agency's counters a change needs, or undefined when it changes no count. */
export function agencyCountersUpdate(tableName: string, agencyId: string, change: CountChange) {
  const agents = change.agents ?? 0;
  const admins = change.admins ?? 0;
  if (agents === 0 && admins === 0) return undefined;
  const conditions = [
    ...(agents > 0 ? [HAS_ROOM] : []),
    ...(admins < 0 && !change.force ? ['active_admins > :one'] : []),
  ];
  return {
    TableName: tableName,
    Key: agencyCountersKey(agencyId),
    UpdateExpression: `ADD ${[agents ? 'agents :agents' : '', admins ? 'active_admins :admins' : ''].filter(Boolean).join(', ')}`,
    ...(conditions.length > 0 && { ConditionExpression: conditions.join(' AND ') }),
    ExpressionAttributeValues: {
      ...(agents !== 0 && { ':agents': agents }),
      ...(admins !== 0 && { ':admins': admins }),
      ...(agents > 0 && { ':defaultLimit': DEFAULT_AGENT_LIMIT, ':zero': 0 }),
      ...(admins < 0 && !change.force && { ':one': 1 }),
    },
  };
}

/** Sets one of the agency's numbers outright (the operator's `limit`; `migrate`'s count of agents). */
async function setCounter(
  store: TableHandle,
  agencyId: string,
  field: 'agent_limit' | 'agents',
  value: number,
) {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: agencyCountersKey(agencyId),
      UpdateExpression: 'SET #field = :value',
      ExpressionAttributeNames: { '#field': field },
      ExpressionAttributeValues: { ':value': value },
    }),
  );
}

/** The operator's `limit`: how many agents the agency may register from now on. */
export const setAgentLimit = (store: TableHandle, agencyId: string, limit: number) =>
  setCounter(store, agencyId, 'agent_limit', limit);

/** `migrate`: the count of registered agents, for agencies from before it was kept. */
export const setAgentCount = (store: TableHandle, agencyId: string, agents: number) =>
  setCounter(store, agencyId, 'agents', agents);
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
