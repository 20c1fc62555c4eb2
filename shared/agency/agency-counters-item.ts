import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../db/client.ts';
import { agencyPartition } from '../db/table.ts';

/**
 * The agency counters item (`AGENCY#<agency_id>` / `ADMINS`, named when it held only the first):
 * `active_admins`, the condition that keeps the last active ADMIN; `agents`, the agents registered
 * (active or not, until released), the condition that keeps the agency within `agent_limit` (set by the
 * operator; {@link DEFAULT_AGENT_LIMIT} when absent). Written only inside agent changes
 * (agent-changes.ts), and by the operator's `limit` and `migrate`.
 */
export const agencyCountersKey = (agencyId: string) => ({ pk: agencyPartition(agencyId), sk: 'ADMINS' });

/** How many agents an agency may register unless the operator raised (or lowered) its limit. */
export const DEFAULT_AGENT_LIMIT = 50;

/**
 * While the agency has room for one more agent: below its own limit, or below the default without one.
 * DynamoDB compares two attributes of the item, so no read comes first.
 */
const HAS_ROOM =
  '((attribute_not_exists(agent_limit) AND (attribute_not_exists(agents) OR agents < :defaultLimit)) OR (attribute_not_exists(agents) AND agent_limit > :zero) OR agents < agent_limit)';

export interface CountChange {
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
