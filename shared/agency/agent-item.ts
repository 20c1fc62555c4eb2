import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { IdentifierType } from '../auth/identifier.ts';
import { ROLES, type Role } from '../auth/roles.ts';
import type { TableHandle } from '../db/client.ts';
import { parseItem } from '../db/stored-item.ts';
import { GSI1 } from '../db/table.ts';
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

/** An agent as its profile stores it, with the version every change is conditional on. */
export interface StoredAgent {
  readonly agent: Agent;
  /** Absent on profiles stored before session states existed: `npm run agents -- migrate` adds it. */
  readonly version: number | undefined;
}

/**
 * Whether a name reads as the operator's (`Operator (CLI)`, the actor of the CLI's changes): compared
 * by its letters and digits only, compatibility-folded and case-folded, so no re-spelling passes.
 */
const impersonatesOperator = (name: string) =>
  ['operator', 'operatorcli'].includes(
    name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, ''),
  );

/**
 * A character a name may hold: anything but the other categories (`\p{C}`: control, format, surrogate,
 * private-use and unassigned code points) and the line and paragraph separators, except the zero-width
 * joiner and non-joiner that Indic and Arabic spellings need. U+001D or a right-to-left override would
 * reach every list, e-mail and log line that shows the name.
 */
const NAME_CHARACTER = String.raw`(?:[^\p{C}\p{Zl}\p{Zp}]|[\u200C\u200D])`;
/** As the document states it: judged on the text as sent, which the service trims. */
const PRINTABLE_NAME = String.raw`^(?=[\s\S]*\S)\s*${NAME_CHARACTER}*\s*$`;
const printable = new RegExp(`^${NAME_CHARACTER}*$`, 'u');
const NOT_PRINTABLE = 'must not contain control, format, private-use or unassigned characters';

/**
 * 1-100 characters (code points after NFC), trimmed; letters of any script, never a control, format or
 * unassigned character; never the operator's name.
 */
export const AgentName = z.string().check(
  z.overwrite((value) => value.normalize('NFC').trim()),
  z.refine((value) => [...value].length >= 1 && [...value].length <= 100, 'must be 1-100 characters'),
  z.refine((value) => printable.test(value), NOT_PRINTABLE),
  z.refine((value) => !impersonatesOperator(value), 'must not be the operator’s name (Operator (CLI))'),
  z.meta({
    description:
      '1-100 characters (code points after NFC), trimmed: at least one that is not a space, none a control, format (but the zero-width joiners), private-use or unassigned character; not the operator’s name, Operator (CLI), however spelled',
    minLength: 1,
    maxLength: 100,
    pattern: PRINTABLE_NAME,
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

/**
 * The agent profile item (`AGENT#<identifier>` / `PROFILE`): the canonical agent, keyed by what it
 * signs in with, so an identifier is taken exactly once. Listed in GSI1 under `AGENTS`, sorted by
 * `<agency_id>#<identifier>`: an agency's agents sort together.
 */
export const agentKey = (identifier: string) => ({ pk: `AGENT#${identifier}`, sk: 'PROFILE' });

const AGENTS = 'AGENTS';
const listingKey = (agencyId: string, identifier: string) => ({
  gsi1pk: AGENTS,
  gsi1sk: `${agencyId}#${identifier}`,
});

const ActorItem = z.object({ id: z.string(), name: z.string() });
const AgentItem = z.object({
  id: z.string(),
  name: z.string(),
  agency_id: z.string(),
  identifier: z.string(),
  type: z.enum(['EMAIL', 'PHONE']),
  /** Absent on agents stored before roles existed: they are AGENTs. */
  role: z.optional(z.enum(ROLES)),
  active: z.boolean(),
  created_at: z.string(),
  created_by: z.optional(ActorItem),
  updated_at: z.optional(z.string()),
  updated_by: z.optional(ActorItem),
  version: z.optional(z.number()),
});

/** The agent a profile item holds (legacy shapes included), checked. */
function storedAgentOf(item: unknown): StoredAgent {
  const { version, role, ...agent } = parseItem('agent profile', AgentItem, item);
  return { agent: { ...agent, role: role ?? 'AGENT' }, version };
}

/** The Put that registers `agent`: the identifier is taken exactly once (`attribute_not_exists`, never a read first). */
export function newAgentProfile(tableName: string, agent: Agent) {
  return {
    TableName: tableName,
    Item: {
      ...agentKey(agent.identifier),
      ...listingKey(agent.agency_id, agent.identifier),
      ...agent,
      version: 1,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * The Update that stores a change of an agent, writing only the fields it sets, so changes of
 * different fields never undo each other. A change of role or active is conditional on both being as
 * read (the ADMIN count and the end of sessions follow from them); any change needs the profile to
 * still exist. `version` counts changes.
 */
export function agentProfileUpdate(
  tableName: string,
  before: Agent,
  changes: { name?: string; role?: Role; active?: boolean },
  audit: { at: string; by: Actor },
) {
  const guarded = changes.role !== undefined || changes.active !== undefined;
  const sets = [
    ...(changes.name !== undefined ? ['#name = :name'] : []),
    // Agents stored before roles existed are AGENTs; their first change writes it down.
    changes.role !== undefined ? '#role = :role' : '#role = if_not_exists(#role, :agentRole)',
    ...(changes.active !== undefined ? ['active = :active'] : []),
    'updated_at = :at',
    'updated_by = :by',
    'gsi1sk = :listing',
  ];
  const wasRole =
    before.role === 'AGENT' ? '(#role = :wasRole OR attribute_not_exists(#role))' : '#role = :wasRole';
  return {
    TableName: tableName,
    Key: agentKey(before.identifier),
    UpdateExpression: `SET ${sets.join(', ')} ADD version :one`,
    ConditionExpression: guarded
      ? `attribute_exists(pk) AND ${wasRole} AND active = :wasActive`
      : 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#role': 'role', ...(changes.name !== undefined && { '#name': 'name' }) },
    ExpressionAttributeValues: {
      ...(changes.name !== undefined && { ':name': changes.name }),
      ...(changes.role !== undefined ? { ':role': changes.role } : { ':agentRole': 'AGENT' }),
      ...(changes.active !== undefined && { ':active': changes.active }),
      ':at': audit.at,
      ':by': audit.by,
      ':one': 1,
      ':listing': listingKey(before.agency_id, before.identifier).gsi1sk,
      ...(guarded && { ':wasRole': before.role, ':wasActive': before.active }),
    },
  };
}

/** The Delete of a released agent's profile (the operator's `release`): the identifier is free again. */
export function agentProfileDelete(tableName: string, identifier: string) {
  return { TableName: tableName, Key: agentKey(identifier), ConditionExpression: 'attribute_exists(pk)' };
}

/** The agent registered under a normalised identifier, if any (active or not), with its version. */
export async function readAgentProfile(
  store: TableHandle,
  identifier: string,
): Promise<StoredAgent | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: agentKey(identifier), ConsistentRead: true }),
  );
  return Item ? storedAgentOf(Item) : undefined;
}

/** Every agent of every agency, ordered by agency then identifier: the operator's listing. */
export async function listEveryAgent(store: TableHandle): Promise<Agent[]> {
  const agents: Agent[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :agents',
        ExpressionAttributeValues: { ':agents': AGENTS },
        ExclusiveStartKey: startKey,
      }),
    );
    agents.push(...(page.Items ?? []).map((item) => storedAgentOf(item).agent));
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
  // Every listing key of the agency starts with its key for the empty identifier.
  const agency = listingKey(agencyId, '');
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :agents AND begins_with(gsi1sk, :agency)',
      ExpressionAttributeValues: { ':agents': agency.gsi1pk, ':agency': agency.gsi1sk },
      Limit: page.limit + 1,
      ExclusiveStartKey: page.after
        ? { ...agentKey(page.after), ...listingKey(agencyId, page.after) }
        : undefined,
    }),
  );
  const found = (result.Items ?? []).map((item) => storedAgentOf(item).agent);
  return {
    agents: found.slice(0, page.limit),
    more: found.length > page.limit || result.LastEvaluatedKey !== undefined,
  };
}
