import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { type Clock, isoSeconds } from '../clock.ts';
import { isConditionFailed } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import type { IdentifierType } from './identifier.ts';

/** A registered travel agent: the only people who can sign in. */
export interface Agent {
  id: string;
  name: string;
  agency_id: string;
  identifier: string;
  type: IdentifierType;
  active: boolean;
  created_at: string;
}

export interface AgentStore {
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
}

export const AgentName = z.string().trim().min(1).max(100);
/** Agency ids are slugs: `demo-agency`. */
export const AgencyId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'must be 1-63 lower-case letters, digits or hyphens, not starting with a hyphen',
  );

export class AgentExistsError extends Error {
  override name = 'AgentExistsError';
}

/** The agent registered under a normalised identifier, if any (active or not). */
export async function findAgent(store: AgentStore, identifier: string): Promise<Agent | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.agent(identifier) }),
  );
  return Item ? toAgent(Item) : undefined;
}

/**
 * Registers an agent under a normalised identifier; refuses one that is already registered.
 *
 * @example await registerAgent(store, clock, { identifier: 'agent@example.com', type: 'EMAIL', name: 'Demo Agent', agencyId: 'demo-agency' })
 */
export async function registerAgent(
  store: AgentStore,
  clock: Clock,
  input: { identifier: string; type: IdentifierType; name: string; agencyId: string },
): Promise<Agent> {
  const agent: Agent = {
    id: `agt_${randomBytes(12).toString('hex')}`,
    name: AgentName.parse(input.name),
    agency_id: AgencyId.parse(input.agencyId),
    identifier: input.identifier,
    type: input.type,
    active: true,
    created_at: isoSeconds(clock.now()),
  };
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...keys.agent(agent.identifier), gsi1pk: gsi1.agents, gsi1sk: agent.identifier, ...agent },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailed(error))
      throw new AgentExistsError(`an agent is already registered as ${agent.identifier}`);
    throw error;
  }
  return agent;
}

/** Every agent, ordered by identifier. */
export async function listAgents(store: AgentStore): Promise<Agent[]> {
  const agents: Agent[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :agents',
        ExpressionAttributeValues: { ':agents': gsi1.agents },
        ExclusiveStartKey: startKey,
      }),
    );
    agents.push(...(page.Items ?? []).map(toAgent));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return agents;
}

function toAgent(item: Record<string, unknown>): Agent {
  const { id, name, agency_id, identifier, type, active, created_at } = item as unknown as Agent;
  return { id, name, agency_id, identifier, type, active, created_at };
}
