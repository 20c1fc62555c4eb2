import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import type { IdentifierType } from './identifier.ts';
import { type Role, roleOf } from './roles.ts';
import '../zod-locale.ts';

/** Who made a change: an agent of the agency, or the operator's CLI. */
export interface Actor {
  id: string;
  name: string;
}

/** A registered travel agent: the only people who can sign in. */
export interface Agent {
  id: string;
  name: string;
  agency_id: string;
  identifier: string;
  type: IdentifierType;
  role: Role;
  active: boolean;
  created_at: string;
  created_by?: Actor;
  updated_at?: string;
  updated_by?: Actor;
}

/** 1-100 characters (code points after NFC), trimmed. */
export const AgentName = z.string().check(
  z.overwrite((value) => value.normalize('NFC').trim()),
  z.refine((value) => [...value].length >= 1 && [...value].length <= 100, 'must be 1-100 characters'),
  z.meta({
    description: '1-100 characters (code points after NFC), trimmed: at least one that is not a space',
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
  }),
);

/** Agency ids are slugs: `demo-agency`. */
export const AgencyId = z
  .string()
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9-]{0,62}$/,
      'must be 1-63 lower-case letters, digits or hyphens, not starting with a hyphen',
    ),
  );

/** The position of an agent in the listing index: an agency's agents sort together, by identifier. */
export const listingKey = (agencyId: string, identifier: string) => `${agencyId}#${identifier}`;

/** The agent registered under a normalised identifier, if any (active or not). */
export async function findAgent(store: TableHandle, identifier: string): Promise<Agent | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.agent(identifier), ConsistentRead: true }),
  );
  return Item ? toAgent(Item) : undefined;
}

/** Every agent of every agency, ordered by agency then identifier: the operator's listing. */
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

/**
 * One page of an agency's agents, ordered by identifier, after the agent with identifier `after`.
 * Reads one more than the page to know whether another follows.
 */
export async function listAgencyAgents(
  store: TableHandle,
  agencyId: string,
  page: { limit: number; after?: string },
): Promise<{ agents: Agent[]; more: boolean }> {
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :agents AND begins_with(gsi1sk, :agency)',
      ExpressionAttributeValues: { ':agents': gsi1.agents, ':agency': `${agencyId}#` },
      Limit: page.limit + 1,
      ExclusiveStartKey: page.after
        ? {
            ...keys.agent(page.after),
            gsi1pk: gsi1.agents,
            gsi1sk: listingKey(agencyId, page.after),
          }
        : undefined,
    }),
  );
  const found = (result.Items ?? []).map(toAgent);
  return {
    agents: found.slice(0, page.limit),
    more: found.length > page.limit || result.LastEvaluatedKey !== undefined,
  };
}

export function toAgent(item: Record<string, unknown>): Agent {
  const agent = item as unknown as Agent;
  return {
    id: agent.id,
    name: agent.name,
    agency_id: agent.agency_id,
    identifier: agent.identifier,
    type: agent.type,
    role: roleOf(agent.role),
    active: agent.active,
    created_at: agent.created_at,
    ...(agent.created_by && { created_by: agent.created_by }),
    ...(agent.updated_at && { updated_at: agent.updated_at }),
    ...(agent.updated_by && { updated_by: agent.updated_by }),
  };
}
