import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { endEverySession, newSessionState, sessionStateDelete } from '../auth/session-state-item.ts';
import { missingSnapshotUpdate, signInSnapshotRelease } from '../auth/sign-in-snapshot.ts';
import type { Clock } from '../clock.ts';
import { isConditionFailed, type TableHandle } from '../db/client.ts';
import { TRY_AGAIN } from '../db/retry.ts';
import { slotted, transact } from '../db/transaction.ts';
import { agencyCountersUpdate } from './agency-counters-item.ts';
import { type AgentChanges, CHANGE_RETRIES, raceOrThrow, updateAgent } from './agent-changes.ts';
import { type Agent, agentProfileDelete, readAgentProfile } from './agent-item.ts';

/**
 * The operator's changes (CLI, docs/API.md §3.4): any agency's agent, found by its identifier, with
 * powers an agency's ADMINs do not have — cutting off the last ADMIN (`deactivate --force`), ending an
 * agent's sessions (`revoke`) and freeing an identifier registered by mistake (`release`).
 */

/**
 * The operator's change of the agent registered as `identifier` (activate, deactivate, role,
 * migrate); undefined when there is none. Agents stored before roles and session states existed get
 * both on their first change, so `migrate` is a change of nothing. `force`: the last active ADMIN may
 * be demoted or deactivated.
 */
export async function changeAgentByIdentifier(
  store: TableHandle,
  clock: Clock,
  identifier: string,
  changes: AgentChanges,
  options: { force?: boolean } = {},
): Promise<Agent | undefined> {
  const stored = await readAgentProfile(store, identifier);
  if (!stored) return undefined;
  if (stored.version === undefined) await writeMissingState(store, stored.agent);
  return updateAgent(store, clock, {
    agentId: stored.agent.id,
    agencyId: undefined,
    changes,
    by: { operator: true },
    force: options.force,
  });
}

/** The session state (and snapshot) of an agent stored before they existed, so it can be found by id. */
async function writeMissingState(store: TableHandle, agent: Agent): Promise<void> {
  // A legacy agent is an AGENT (an ADMIN is only ever made by a counted change); an existing state stays.
  await store.db.send(new PutCommand(newSessionState(store.tableName, agent))).catch((error: unknown) => {
    if (!isConditionFailed(error)) throw error;
  });
  await store.db.send(new UpdateCommand(missingSnapshotUpdate(store.tableName, agent)));
}

/**
 * The operator's `revoke`: ends every session of the agent registered as `identifier` from the next
 * request on (it may sign in again, unless also deactivated). Undefined when there is none.
 */
export async function revokeAgentSessions(
  store: TableHandle,
  clock: Clock,
  identifier: string,
): Promise<Agent | undefined> {
  const stored = await readAgentProfile(store, identifier);
  if (!stored || !(await endEverySession(store, stored.agent.id, clock.now()))) return undefined;
  return stored.agent;
}

/**
 * The operator's `release`: forgets the agent registered as `identifier`, in one transaction — its
 * profile (the identifier is free to register again, in any agency), its sign-in snapshot and pending
 * code, its session state (every token it holds stops working) and its place in the agency's counts
 * (no LAST_ADMIN rule: the operator decides). Undefined when there is none. Its bookings stay, with
 * their `created_by`.
 */
export async function releaseAgent(
  store: TableHandle,
  clock: Clock,
  identifier: string,
): Promise<Agent | undefined> {
  const { tableName } = store;
  // The agent the try that writes read: none when there is no agent to release.
  let released: Agent | undefined;
  const transaction = async () => {
    const stored = await readAgentProfile(store, identifier);
    released = stored?.agent;
    if (!stored) return undefined;
    const { agent } = stored;
    const counts = agencyCountersUpdate(tableName, agent.agency_id, {
      agents: -1,
      admins: agent.role === 'ADMIN' && agent.active ? -1 : 0,
      force: true,
    });
    return slotted([
      ['profile', { Delete: { ...agentProfileDelete(tableName, identifier), ...sameAgent(agent) } }],
      ['snapshot', { Update: signInSnapshotRelease(tableName, identifier, clock.now()) }],
      ['state', { Delete: sessionStateDelete(tableName, agent.id) }],
      counts ? ['counts', { Update: counts }] : undefined,
    ]);
  };
  return transact(store.db, transaction, {
    written: () => released,
    cancelled: (reasons, error) => {
      // Changed (or released) since it was read: read it again.
      if (reasons.conditionFailed('profile')) return TRY_AGAIN;
      return raceOrThrow(reasons, error);
    },
    policy: CHANGE_RETRIES,
  });
}

/** The profile is still the agent as read: the same id, role and active state the counts follow. */
const sameAgent = (agent: Agent) => ({
  ConditionExpression: 'attribute_exists(pk) AND id = :id AND #role = :role AND active = :active',
  ExpressionAttributeNames: { '#role': 'role' },
  ExpressionAttributeValues: { ':id': agent.id, ':role': agent.role, ':active': agent.active },
});
