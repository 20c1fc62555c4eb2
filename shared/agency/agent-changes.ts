import { randomBytes } from 'node:crypto';
import { callerCheck, callerMayAdminister, refusedCaller } from '../auth/caller-right.ts';
import type { IdentifierType } from '../auth/identifier.ts';
import type { Role } from '../auth/roles.ts';
import type { Session } from '../auth/session.ts';
import {
  newSessionState,
  readSessionIdentifier,
  sessionStateUpdate,
  sessionsEndedAt,
} from '../auth/session-state-item.ts';
import { signInSnapshotChange, signInSnapshotUpdate } from '../auth/sign-in-snapshot.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { type RetryPolicy, TRY_AGAIN } from '../db/retry.ts';
import { type CancellationReasons, slotted, transact } from '../db/transaction.ts';
import {
  IdentifierTakenError,
  LastAdminError,
  LimitReachedError,
  NotFoundError,
  RateLimitedError,
} from '../errors.ts';
import { agencyCountersUpdate } from './agency-counters-item.ts';
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
const OPERATOR: Actor = { id: 'operator', name: 'Operator (CLI)' };

/**
 * Who makes a change: an ADMIN through the API (its session: the change is conditioned on the
 * session's right to make it, in the same transaction), or the operator's CLI.
 */
type ChangeMaker = { session: Session } | { operator: true };

const actorOf = (by: ChangeMaker): Actor =>
  'session' in by ? { id: by.session.agentId, name: by.session.agentName } : OPERATOR;

/** An agent counts towards its agency's ADMINs while it is an active ADMIN. */
const isActiveAdmin = (agent: Pick<Agent, 'role' | 'active'>) => agent.role === 'ADMIN' && agent.active;

/**
 * Agent changes are retried only because clients race each other (two changes of one agent, or of one
 * agency's counts): more tries, spread out, and never a 503 — when they run out, 429 with Retry-After.
 */
export const CHANGE_RETRIES: RetryPolicy = {
  tries: 10,
  exhausted: () => new RateLimitedError(1, 'Too many changes of this agency at once; try again.'),
};

/**
 * Another try when the transaction lost a race with another client's (DynamoDB's TransactionConflict);
 * anything else — DynamoDB throttling or failing — is thrown, and answered 503 as a dependency failure.
 */
export function raceOrThrow(reasons: CancellationReasons<string>, error: unknown): typeof TRY_AGAIN {
  if (reasons.any('TransactionConflict')) return TRY_AGAIN;
  throw error;
}

/**
 * Registers an agent under a normalised identifier, in one transaction: the profile (the identifier
 * is taken exactly once: `attribute_not_exists`, never a read first), the snapshot sign-in reads, the
 * session state every request reads, the agency's counts (agents within the agency's limit, 409
 * LIMIT_REACHED; active ADMINs) and, made by an ADMIN, that ADMIN's right to act. 409 IDENTIFIER_TAKEN
 * when the identifier already signs someone in, in any agency.
 *
 * @example await registerAgent(store, clock, { identifier: 'agent@example.com', type: 'EMAIL', name: 'Demo Agent', agencyId: 'demo-agency', role: 'ADMIN', by: { operator: true } })
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
    /** Default: the operator (the CLI, the local demo agent). */
    by?: ChangeMaker;
  },
): Promise<Agent> {
  const by: ChangeMaker = input.by ?? { operator: true };
  const agent: Agent = {
    id: `agt_${randomBytes(12).toString('hex')}`,
    name: AgentName.parse(input.name),
    agency_id: AgencyId.parse(input.agencyId),
    identifier: input.identifier,
    type: input.type,
    role: input.role ?? 'AGENT',
    active: true,
    created_at: isoSeconds(clock.now()),
    created_by: actorOf(by),
  };
  const { tableName } = store;
  const counts = agencyCountersUpdate(tableName, agent.agency_id, {
    agents: +1,
    admins: Number(isActiveAdmin(agent)),
  });
  const transaction = slotted([
    ['profile', { Put: newAgentProfile(tableName, agent) }],
    ['snapshot', { Update: signInSnapshotUpdate(tableName, agent) }],
    ['state', { Put: newSessionState(tableName, agent) }],
    counts ? ['counts', { Update: counts }] : undefined,
    'session' in by ? ['caller', { ConditionCheck: callerCheck(tableName, by.session) }] : undefined,
  ]);
  return transact(store.db, () => transaction, {
    written: () => agent,
    cancelled: async (reasons, error): Promise<typeof TRY_AGAIN> => {
      if ('session' in by && reasons.conditionFailed('caller')) throw await refusedCaller(store, by.session);
      if (reasons.conditionFailed('profile')) throw new IdentifierTakenError();
      if (reasons.conditionFailed('counts')) throw new LimitReachedError();
      return raceOrThrow(reasons, error); // a conflict with another change of the agency's counts
    },
    policy: CHANGE_RETRIES,
  });
}

export interface AgentChanges {
  name?: string;
  role?: Role;
  active?: boolean;
}

/**
 * Changes an agent of `agencyId` (any agency for the operator: `agencyId` undefined). One transaction
 * writes only the fields the change sets — in the profile (a change of role or active conditional on
 * both being as read), the sign-in snapshot and the session state (deactivation sets `valid_after`,
 * ending every token the agent holds at once, and voids its pending code; re-activation revives
 * neither) — and the agency's ADMIN count, which may not fall below one (409 LAST_ADMIN, also when
 * two ADMINs demote each other at once) unless the operator forces it. Made by an ADMIN, it is
 * conditioned on that ADMIN's right to act at the moment of the write, on every try. A change that
 * loses a race is read and tried again. Another agency's agent is 404, exactly like none.
 */
export async function updateAgent(
  store: TableHandle,
  clock: Clock,
  input: {
    agentId: string;
    agencyId: string | undefined;
    changes: AgentChanges;
    by: ChangeMaker;
    force?: boolean;
  },
): Promise<Agent> {
  const { tableName } = store;
  const changes: AgentChanges = {
    ...input.changes,
    ...(input.changes.name !== undefined && { name: AgentName.parse(input.changes.name) }),
  };
  const session = 'session' in input.by ? input.by.session : undefined;
  // What the try that writes made: the agent as changed, and the change to the active ADMINs.
  let after!: Agent;
  let delta = 0;
  const transaction = async () => {
    const stored = await readAgentById(store, input.agentId);
    if (!stored || (input.agencyId !== undefined && stored.agent.agency_id !== input.agencyId))
      throw new NotFoundError('No such agent in your agency.');
    const { agent: before } = stored;
    const now = clock.now();
    after = {
      ...before,
      ...changes,
      updated_at: isoSeconds(now),
      updated_by: actorOf(input.by),
    };
    delta = Number(isActiveAdmin(after)) - Number(isActiveAdmin(before));
    const validAfter = before.active && !after.active ? sessionsEndedAt(now) : undefined;
    return agentChangeWrites(tableName, { ...input, before, after, changes, validAfter, delta });
  };
  return transact(store.db, transaction, {
    written: () => after,
    cancelled: async (reasons, error): Promise<typeof TRY_AGAIN> => {
      if (session && reasons.conditionFailed('caller')) throw await refusedCaller(store, session);
      // Another change of this agent's role or active state got there first: the count read is stale too.
      if (reasons.conditionFailed('profile')) return TRY_AGAIN;
      if (delta < 0 && reasons.conditionFailed('admins')) throw new LastAdminError();
      return raceOrThrow(reasons, error); // a conflict with another change of the same items
    },
    policy: CHANGE_RETRIES,
  });
}

/**
 * The writes of one change of `before` into `after`: its profile (conditional on the role and active
 * state read), sign-in snapshot and session state, the agency's ADMIN count when it moves (`delta`),
 * and the right to act of the ADMIN making it. An ADMIN changing itself: the condition goes on the
 * state this change writes anyway.
 */
function agentChangeWrites(
  tableName: string,
  input: {
    before: Agent;
    after: Agent;
    changes: AgentChanges;
    validAfter: number | undefined;
    delta: number;
    by: ChangeMaker;
    force?: boolean;
  },
) {
  const { before, after, changes, by } = input;
  const session = 'session' in by ? by.session : undefined;
  const self = session?.agentId === before.id;
  const counts = agencyCountersUpdate(tableName, before.agency_id, {
    admins: input.delta,
    force: input.force,
  });
  return slotted([
    [
      'profile',
      {
        Update: agentProfileUpdate(tableName, before, changes, {
          at: after.updated_at ?? '',
          by: actorOf(by),
        }),
      },
    ],
    ['snapshot', { Update: signInSnapshotChange(tableName, before.identifier, changes) }],
    [
      self ? 'caller' : 'state',
      {
        Update: sessionStateUpdate(
          tableName,
          before,
          changes,
          input.validAfter,
          self && session ? callerMayAdminister(session) : undefined,
        ),
      },
    ],
    counts ? ['admins', { Update: counts }] : undefined,
    session && !self ? ['caller', { ConditionCheck: callerCheck(tableName, session) }] : undefined,
  ]);
}

/** The agent with id `agentId` and the version its profile is at, through its session state. */
async function readAgentById(store: TableHandle, agentId: string): Promise<StoredAgent | undefined> {
  const identifier = await readSessionIdentifier(store, agentId);
  if (identifier === undefined) return undefined;
  const stored = await readAgentProfile(store, identifier);
  return stored?.agent.id === agentId ? stored : undefined;
}
