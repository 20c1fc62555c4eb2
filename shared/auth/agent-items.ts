import { keys } from '../db/table.ts';
import { type Agent, listingKey } from './agents.ts';

/** The DynamoDB writes an agent change is made of, one builder per item (agent-changes.ts composes them). */

export function profileUpdate(tableName: string, agent: Agent, version: number | undefined) {
  return {
    TableName: tableName,
    Key: keys.agent(agent.identifier),
    UpdateExpression:
      'SET #name = :name, #role = :role, active = :active, updated_at = :at, updated_by = :by, version = :next, gsi1sk = :listing',
    // Agents registered before versions existed have none.
    ConditionExpression: version === undefined ? 'attribute_not_exists(version)' : 'version = :version',
    ExpressionAttributeNames: { '#name': 'name', '#role': 'role' },
    ExpressionAttributeValues: {
      ':name': agent.name,
      ':role': agent.role,
      ':active': agent.active,
      ':at': agent.updated_at,
      ':by': agent.updated_by,
      ':next': (version ?? 0) + 1,
      ':listing': listingKey(agent.agency_id, agent.identifier),
      ...(version !== undefined && { ':version': version }),
    },
  };
}

export function stateUpdate(tableName: string, agent: Agent, validAfter: number | undefined) {
  const state = stateOf(agent);
  return {
    TableName: tableName,
    Key: keys.sessionState(agent.id),
    UpdateExpression: `SET agency_id = :agency, identifier = :identifier, #name = :name, #role = :role, active = :active, revoked = if_not_exists(revoked, :none)${validAfter === undefined ? '' : ', valid_after = :after'}`,
    ExpressionAttributeNames: { '#name': 'name', '#role': 'role' },
    ExpressionAttributeValues: {
      ':agency': state.agency_id,
      ':identifier': state.identifier,
      ':name': state.name,
      ':role': state.role,
      ':active': state.active,
      ':none': {},
      ...(validAfter !== undefined && { ':after': validAfter }),
    },
  };
}

/** Adds `delta` to the agency's count of active ADMINs; a decrease needs another ADMIN to remain. */
export function adminCount(tableName: string, agencyId: string, delta: number) {
  return {
    TableName: tableName,
    Key: keys.agencyAdmins(agencyId),
    UpdateExpression: 'ADD active_admins :delta',
    ...(delta < 0 && { ConditionExpression: 'active_admins > :one' }),
    ExpressionAttributeValues: { ':delta': delta, ...(delta < 0 && { ':one': 1 }) },
  };
}

export const snapshotOf = (agent: Agent) => ({
  id: agent.id,
  name: agent.name,
  agency_id: agent.agency_id,
  active: agent.active,
});

export const stateOf = (agent: Agent) => ({
  agency_id: agent.agency_id,
  identifier: agent.identifier,
  name: agent.name,
  role: agent.role,
  active: agent.active,
});
