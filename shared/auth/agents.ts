import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import type { IdentifierType } from './identifier.ts';
import { type AgentSnapshot, agentSnapshotUpdate } from './otp-challenge.ts';

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
export async function findAgent(store: TableHandle, identifier: string): Promise<Agent | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.agent(identifier) }),
  );
  return Item ? toAgent(Item) : undefined;
}

/**
 * Registers an agent under a normalised identifier; refuses one that is already registered. The profile
 * and the snapshot sign-in reads (in the identifier's OTP item) are written in one transaction.
 *
 * @example await registerAgent(store, clock, { identifier: 'agent@example.com', type: 'EMAIL', name: 'Demo Agent', agencyId: 'demo-agency' })
 */
export async function registerAgent(
  store: TableHandle,
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
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: store.tableName,
              Item: {
                ...keys.agent(agent.identifier),
                gsi1pk: gsi1.agents,
                gsi1sk: agent.identifier,
                ...agent,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Update: agentSnapshotUpdate(store.tableName, agent.identifier, snapshotOf(agent)) },
        ],
      }),
    );
  } catch (error) {
    if (firstConditionFailed(error))
      throw new AgentExistsError(`an agent is already registered as ${agent.identifier}`);
    throw error;
  }
  return agent;
}

/** Deactivates (or reactivates) an agent: a deactivated agent is sent no codes and cannot sign in. */
export async function setAgentActive(
  store: TableHandle,
  identifier: string,
  active: boolean,
): Promise<Agent | undefined> {
  const agent = await findAgent(store, identifier);
  if (!agent) return undefined;
  const updated = { ...agent, active };
  await store.db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: store.tableName,
            Key: keys.agent(identifier),
            UpdateExpression: 'SET active = :active',
            ExpressionAttributeValues: { ':active': active },
          },
        },
        { Update: agentSnapshotUpdate(store.tableName, identifier, snapshotOf(updated)) },
      ],
    }),
  );
  return updated;
}

const snapshotOf = (agent: Agent): AgentSnapshot => ({
  id: agent.id,
  name: agent.name,
  agency_id: agent.agency_id,
  active: agent.active,
});

function firstConditionFailed(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const [first] = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return first?.Code === 'ConditionalCheckFailed';
}

/** Every agent, ordered by identifier. */
export async function listAgents(store: TableHandle): Promise<Agent[]> {
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
