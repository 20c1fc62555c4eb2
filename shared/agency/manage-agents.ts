import * as z from 'zod/mini';
import { IDENTIFIER_FORMS, identifierOrIssue, normalizeIdentifier } from '../auth/identifier.ts';
import { phoneNumberProblem } from '../auth/phone-number-problem.ts';
import { ROLES } from '../auth/roles.ts';
import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import { decodeCursor, encodeCursor, pageFields } from '../cursor.ts';
import type { TableHandle } from '../db/client.ts';
import { ValidationError } from '../errors.ts';
import '../zod-locale.ts';
import { type AgentChanges, registerAgent, updateAgent } from './agent-changes.ts';
import { type Agent, AgentName, listAgencyAgents } from './agent-item.ts';

/** What agency administration needs: the table and the clock. */
interface AgencyDeps extends TableHandle {
  readonly clock: Clock;
}

const AgentId = z.string().check(z.regex(/^agt_[0-9a-f]{24}$/, 'must be an agent id (agt_…)'));
const Role = z.enum(ROLES);

export const ListAgentsRequest = z.object(pageFields(50));

export const CreateAgentRequest = z.pipe(
  z
    .object({
      identifier: z.string().check(
        z.meta({
          description: 'The new agent’s sign-in identifier, normalised as in send-otp',
          examples: ['new.agent@example.com'],
        }),
      ),
      type: z
        .enum(['EMAIL', 'PHONE', 'SMS'])
        .check(z.meta({ description: 'How codes reach the agent; SMS is an alias of PHONE' })),
      name: AgentName,
      role: z._default(Role, 'AGENT'),
    })
    .check(
      z.meta({
        oneOf: [
          { properties: { type: { const: 'EMAIL' }, identifier: IDENTIFIER_FORMS.EMAIL } },
          { properties: { type: { enum: ['PHONE', 'SMS'] }, identifier: IDENTIFIER_FORMS.PHONE } },
        ],
      }),
    ),
  z.transform((body, ctx) => ({
    ...identifierOrIssue(body.identifier, body.type === 'SMS' ? 'PHONE' : body.type, ctx),
    name: body.name,
    role: body.role,
  })),
);

export const UpdateAgentRequest = z
  .object({
    agent_id: AgentId,
    name: z.optional(AgentName),
    role: z.optional(Role),
    active: z.optional(z.boolean('must be true or false')),
  })
  .check(
    z.meta({
      description: 'At least one of name, role and active',
      anyOf: [{ required: ['name'] }, { required: ['role'] }, { required: ['active'] }],
    }),
    z.refine((body) => body.name !== undefined || body.role !== undefined || body.active !== undefined, {
      path: ['agent_id'],
      message: 'give at least one of name, role or active to change',
    }),
  );

/** The Agent resource of docs/API.md §3.4. */
function agentView(agent: Agent) {
  return {
    id: agent.id,
    name: agent.name,
    identifier: agent.identifier,
    type: agent.type,
    role: agent.role,
    active: agent.active,
    created_at: agent.created_at,
    ...(agent.created_by && { created_by: agent.created_by }),
    ...(agent.updated_at && { updated_at: agent.updated_at }),
    ...(agent.updated_by && { updated_by: agent.updated_by }),
  };
}
type AgentView = ReturnType<typeof agentView>;

/** `POST /api/agency/agents/list`: the caller's agency's agents, by identifier, a page at a time. */
export function listAgents(deps: AgencyDeps) {
  return async (
    body: z.output<typeof ListAgentsRequest>,
    session: Session,
  ): Promise<{ agents: AgentView[]; nextCursor: string | null }> => {
    const after = body.cursor === undefined ? undefined : decodeCursor(body.cursor, agentPosition);
    const page = await listAgencyAgents(deps, session.agencyId, { limit: body.limit, after });
    const last = page.agents.at(-1);
    return {
      agents: page.agents.map(agentView),
      nextCursor: page.more && last ? encodeCursor(last.identifier) : null,
    };
  };
}

/** An agent list position: the identifier of the last agent returned, exactly as normalised. */
function agentPosition(identifier: string): string | undefined {
  const normalized = normalizeIdentifier(identifier);
  return normalized.ok && normalized.identifier === identifier ? identifier : undefined;
}

/** What adding agents needs beyond the table: the country codes phone identifiers may have. */
interface CreateAgentDeps extends AgencyDeps {
  readonly allowedPhoneCountryCodes: readonly string[];
}

/**
 * `POST /api/agency/agents/create`: a new agent of the caller's agency, who can sign in at once. A
 * phone number outside the stage's countries, or in a premium-rate or shared-cost range, is a 400 on
 * `identifier`: the service pays for every code it texts.
 */
export function createAgent(deps: CreateAgentDeps) {
  return async (body: z.output<typeof CreateAgentRequest>, session: Session): Promise<AgentView> => {
    const problem =
      body.type === 'PHONE' ? phoneNumberProblem(body.identifier, deps.allowedPhoneCountryCodes) : undefined;
    if (problem) throw new ValidationError([{ path: 'identifier', message: problem }]);
    return agentView(
      await registerAgent(deps, deps.clock, {
        identifier: body.identifier,
        type: body.type,
        name: body.name,
        agencyId: session.agencyId,
        role: body.role,
        by: { session },
      }),
    );
  };
}

/** `POST /api/agency/agents/update`: name, role or active of an agent of the caller's agency. */
export function changeAgent(deps: AgencyDeps) {
  return async (body: z.output<typeof UpdateAgentRequest>, session: Session): Promise<AgentView> => {
    const changes: AgentChanges = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.role !== undefined && { role: body.role }),
      ...(body.active !== undefined && { active: body.active }),
    };
    return agentView(
      await updateAgent(deps, deps.clock, {
        agentId: body.agent_id,
        agencyId: session.agencyId,
        changes,
        by: { session },
      }),
    );
  };
}
