import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Clock, isoSeconds, systemClock } from '../clock.ts';
import { cancellationCodes, isConditionFailed, type TableHandle } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import { IdentifierTakenError, LastAdminError, NotFoundError, ServiceUnavailableError } from '../errors.ts';
import { adminCount, profileUpdate, snapshotOf, stateOf, stateUpdate } from './agent-items.ts';
import { type Actor, AgencyId, type Agent, AgentName, listingKey, toAgent } from './agents.ts';
import type { IdentifierType } from './identifier.ts';
import { agentSnapshotUpdate } from './otp-challenge.ts';
import type { Role } from './roles.ts';

/** The operator's CLI, as it appears in `created_by` / `updated_by`. */
export const OPERATOR: Actor = { id: 'operator', name: 'Operator (CLI)' };

/** An agent counts towards its agency's ADMINs while it is an active ADMIN. */
const isActiveAdmin = (agent: Pick<Agent, 'role' | 'active'>) => agent.role === 'ADMIN' && agent.active;

/**
 * Registers an agent under a normalised identifier, in one transaction: the profile (the identifier
 * is taken exactly once: `attribute_not_exists`, never a read first), the snapshot sign-in reads, the
 * session state every request reads, and the agency's ADMIN count. 409 IDENTIFIER_TAKEN when the
 * identifier already signs someone in, in any agency.
 *
 * @example await registerAgent(store, clock, { identifier: 'agent@example.com', type: 'EMAIL', name: 'Demo Agent', agencyId: 'demo-agency', role: 'ADMIN' })
 */
export async function registerAgent(
  store: TableHandle,
  clock: Clock,
  input: {
    identifier: string;
    type: IdentifierType;
    name: string;
    agencyId: string;
    role?: Role;
    by?: Actor;
  },
): Promise<Agent> {
  const agent: Agent = {
    id: `agt_${randomBytes(12).toString('hex')}`,
    name: AgentName.parse(input.name),
    agency_id: AgencyId.parse(input.agencyId),
    identifier: input.identifier,
    type: input.type,
    role: input.role ?? 'AGENT',
    active: true,
    created_at: isoSeconds(clock.now()),
    ...(input.by && { created_by: input.by }),
  };
  const { tableName } = store;
  try {
    await store.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.agent(agent.identifier),
                gsi1pk: gsi1.agents,
                gsi1sk: listingKey(agent.agency_id, agent.identifier),
                ...agent,
                version: 1,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Update: agentSnapshotUpdate(tableName, agent.identifier, snapshotOf(agent)) },
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.sessionState(agent.id), ...stateOf(agent), valid_after: 0, revoked: {} },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...(isActiveAdmin(agent) ? [{ Update: adminCount(tableName, agent.agency_id, +1) }] : []),
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new IdentifierTakenError();
    throw error;
  }
  return agent;
}

export interface AgentChanges {
  name?: string;
  role?: Role;
  active?: boolean;
}

/** A change is tried again this often when another change of the same agent won the race. */
const MAX_ATTEMPTS = 4;

/**
 * Changes an agent of `agencyId` (any agency for the operator: `agencyId` undefined). One transaction
 * updates the profile (conditional on the version read, so concurrent changes cannot both apply), the
 * sign-in snapshot, the session state (deactivation sets `valid_after`, ending every token the agent
 * holds at once; re-activation leaves it, so old tokens stay dead) and the agency's ADMIN count,
 * which may not fall below one (409 LAST_ADMIN — also when two ADMINs demote each other at once).
 * Another agency's agent is 404, exactly like one that does not exist.
 */
export async function updateAgent(
  store: TableHandle,
  clock: Clock,
  input: { agentId: string; agencyId: string | undefined; changes: AgentChanges; by: Actor },
): Promise<Agent> {
  for (let attempt = 1; ; attempt++) {
    const stored = await readAgentById(store, input.agentId);
    if (!stored || (input.agencyId !== undefined && stored.agent.agency_id !== input.agencyId))
      throw new NotFoundError('No such agent in your agency.');
    const { agent: before, version } = stored;
    const now = clock.now();
    const after: Agent = {
      ...before,
      ...(input.changes.name !== undefined && { name: AgentName.parse(input.changes.name) }),
      ...(input.changes.role !== undefined && { role: input.changes.role }),
      ...(input.changes.active !== undefined && { active: input.changes.active }),
      updated_at: isoSeconds(now),
      updated_by: input.by,
    };
    const delta = Number(isActiveAdmin(after)) - Number(isActiveAdmin(before));
    const deactivated = before.active && !after.active;
    try {
      await store.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: profileUpdate(store.tableName, after, version) },
            { Update: agentSnapshotUpdate(store.tableName, after.identifier, snapshotOf(after)) },
            {
              Update: stateUpdate(
                store.tableName,
                after,
                deactivated ? Math.floor(now / 1000) + 1 : undefined,
              ),
            },
            ...(delta !== 0 ? [{ Update: adminCount(store.tableName, after.agency_id, delta) }] : []),
          ],
        }),
      );
      return after;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (delta < 0 && codes[3] === 'ConditionalCheckFailed') throw new LastAdminError();
      // Another change of this agent (or of the count) got there first: read again and retry.
      if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError(1);
      await sleep(10 * attempt + Math.random() * 20);
    }
  }
}

/**
 * The operator's change of the agent registered as `identifier` (CLI: activate, deactivate, role,
 * migrate); undefined when there is none. Agents stored before roles and session states existed get
 * both on their first change, so `migrate` is a change of nothing.
 */
export async function changeAgentByIdentifier(
  store: TableHandle,
  clock: Clock,
  identifier: string,
  changes: AgentChanges,
): Promise<Agent | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.agent(identifier), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const agent = toAgent(Item);
  if (Item.version === undefined) await writeMissingState(store, agent);
  return updateAgent(store, clock, { agentId: agent.id, agencyId: undefined, changes, by: OPERATOR });
}

/** Deactivates (or reactivates) the agent registered as `identifier`, as the operator. */
export const setAgentActive = (
  store: TableHandle,
  identifier: string,
  active: boolean,
  clock: Clock = systemClock(),
) => changeAgentByIdentifier(store, clock, identifier, { active });

/** Whether the agent's profile predates session states (no version): `migrate` fixes it. */
export const needsMigration = (item: Record<string, unknown>) => item.version === undefined;

/** The session state of an agent stored before they existed, so it can be found by id. */
async function writeMissingState(store: TableHandle, agent: Agent): Promise<void> {
  // A legacy agent is an AGENT (an ADMIN is only ever made by a counted change); an existing state stays.
  await store.db
    .send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...keys.sessionState(agent.id), ...stateOf(agent), valid_after: 0, revoked: {} },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error;
    });
}

/** The agent with id `agentId` and the version its profile is at, through its session state. */
async function readAgentById(
  store: TableHandle,
  agentId: string,
): Promise<{ agent: Agent; version: number | undefined } | undefined> {
  const state = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: keys.sessionState(agentId),
      ConsistentRead: true,
      ProjectionExpression: 'identifier',
    }),
  );
  const identifier = state.Item?.identifier;
  if (typeof identifier !== 'string') return undefined;
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.agent(identifier), ConsistentRead: true }),
  );
  if (!Item || Item.id !== agentId) return undefined;
  return { agent: toAgent(Item), version: typeof Item.version === 'number' ? Item.version : undefined };
}
