import { randomBytes } from 'node:crypto';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentifierType } from '../auth/identifier.ts';
import { signInSnapshotUpdate } from '../auth/otp-challenge-item.ts';
import type { Role } from '../auth/roles.ts';
import { newSessionState, readSessionIdentifier, sessionStateUpdate } from '../auth/session-state-item.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { retrying, TRY_AGAIN } from '../db/retry.ts';
import { cancellationReasons, slotted } from '../db/transaction.ts';
import { IdentifierTakenError, LastAdminError, NotFoundError } from '../errors.ts';
import { adminCountChange } from './agency-counters-item.ts';
import {
  type Actor,
  AgencyId,
  type Agent,
  AgentName,
  agentProfileUpdate,
  newAgentProfile,
  readAgentProfile,
  type StoredAgent,
} from './agent-item.ts';

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
  const transaction = slotted([
    ['profile', { Put: newAgentProfile(tableName, agent) }],
    ['snapshot', { Update: signInSnapshotUpdate(tableName, agent) }],
    ['state', { Put: newSessionState(tableName, agent) }],
    isActiveAdmin(agent)
      ? ['admins', { Update: adminCountChange(tableName, agent.agency_id, +1) }]
      : undefined,
  ]);
  try {
    await store.db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
  } catch (error) {
    if (cancellationReasons(error, transaction.slots)?.conditionFailed('profile'))
      throw new IdentifierTakenError();
    throw error;
  }
  return agent;
}

export interface AgentChanges {
  name?: string;
  role?: Role;
  active?: boolean;
}

/**
 * Changes an agent of `agencyId` (any agency for the operator: `agencyId` undefined). One transaction
 * updates the profile (conditional on the version read, so concurrent changes cannot both apply), the
 * sign-in snapshot, the session state (deactivation sets `valid_after`, ending every token the agent
 * holds at once; re-activation leaves it, so old tokens stay dead) and the agency's ADMIN count,
 * which may not fall below one (409 LAST_ADMIN — also when two ADMINs demote each other at once).
 * A change that loses a race with another is read and tried again (db/retry.ts). Another agency's
 * agent is 404, exactly like one that does not exist.
 */
export async function updateAgent(
  store: TableHandle,
  clock: Clock,
  input: { agentId: string; agencyId: string | undefined; changes: AgentChanges; by: Actor },
): Promise<Agent> {
  const { tableName } = store;
  return retrying(async () => {
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
    const validAfter = before.active && !after.active ? Math.floor(now / 1000) + 1 : undefined;
    const transaction = slotted([
      ['profile', { Update: agentProfileUpdate(tableName, after, version) }],
      ['snapshot', { Update: signInSnapshotUpdate(tableName, after) }],
      ['state', { Update: sessionStateUpdate(tableName, after, validAfter) }],
      delta !== 0 ? ['admins', { Update: adminCountChange(tableName, after.agency_id, delta) }] : undefined,
    ]);
    try {
      await store.db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
      return after;
    } catch (error) {
      const reasons = cancellationReasons(error, transaction.slots);
      if (!reasons) throw error;
      if (delta < 0 && reasons.conditionFailed('admins')) throw new LastAdminError();
      // Another change of this agent (or of the count) got there first: read again and try again.
      return TRY_AGAIN;
    }
  });
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
  const stored = await readAgentProfile(store, identifier);
  if (!stored) return undefined;
  if (stored.version === undefined) await writeMissingState(store, stored.agent);
  return updateAgent(store, clock, { agentId: stored.agent.id, agencyId: undefined, changes, by: OPERATOR });
}

/** The session state of an agent stored before they existed, so it can be found by id. */
async function writeMissingState(store: TableHandle, agent: Agent): Promise<void> {
  // A legacy agent is an AGENT (an ADMIN is only ever made by a counted change); an existing state stays.
  await store.db.send(new PutCommand(newSessionState(store.tableName, agent))).catch((error: unknown) => {
    if (!isConditionFailed(error)) throw error;
  });
}

/** The agent with id `agentId` and the version its profile is at, through its session state. */
async function readAgentById(store: TableHandle, agentId: string): Promise<StoredAgent | undefined> {
  const identifier = await readSessionIdentifier(store, agentId);
  if (identifier === undefined) return undefined;
  const stored = await readAgentProfile(store, identifier);
  return stored?.agent.id === agentId ? stored : undefined;
}
