import * as zod from 'zod/mini';
import { CreateAgentRequest, ListAgentsRequest, UpdateAgentRequest } from '../agency/manage-agents.ts';
import { NotFoundError } from '../errors.ts';
import type { Operation } from './operation.ts';
import { AgencyAgent, success } from './responses.ts';

const agent = {
  id: 'agt_5f2b9c0d4e7a1b3c6d8e0f12',
  name: 'New Colleague',
  identifier: 'new.colleague@example.com',
  type: 'EMAIL',
  role: 'AGENT',
  active: true,
  created_at: '2026-11-24T08:15:00Z',
  created_by: { id: 'agt_0a1b2c3d4e5f60718293a4b5', name: 'Demo Agent' },
};

const adminOnly = 'ADMIN only (403 FORBIDDEN for other roles), and only within your agency.';

/** The agency administration routes (docs/API.md §3.4). */
export const agencyOperations = {
  'agency-agents-list': {
    summary: 'List your agency’s agents',
    description: `Your agency’s agents, ordered by identifier; pass meta.next_cursor back as cursor. ${adminOnly}`,
    tag: 'Agency',
    request: ListAgentsRequest,
    requestExample: { limit: 50 },
    status: 200,
    response: success(zod.array(AgencyAgent), zod.object({ next_cursor: zod.nullable(zod.string()) })),
    responseExample: { success: true, data: [agent], meta: { next_cursor: null } },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  },
  'agency-agents-create': {
    summary: 'Add an agent to your agency',
    description: `The new agent can sign in at once. An identifier already registered, in any agency, is 409 IDENTIFIER_TAKEN. An agency registers at most 50 agents, deactivated ones included, unless the operator set another limit: beyond it, 409 LIMIT_REACHED. Phone numbers only in the countries this service texts (the stage's country calling codes), only mobile or fixed-line numbers that exist in the country's numbering plan, never premium-rate, shared-cost or personal-numbering ranges: 400 on identifier. ${adminOnly}`,
    tag: 'Agency',
    request: CreateAgentRequest,
    requestExample: { identifier: agent.identifier, type: 'EMAIL', name: agent.name, role: 'AGENT' },
    status: 201,
    response: success(AgencyAgent),
    responseExample: { success: true, data: agent },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'IDENTIFIER_TAKEN', 'LIMIT_REACHED', 'RATE_LIMITED'],
  },
  'agency-agents-update': {
    summary: 'Change an agent of your agency',
    description: `Name, role or active. Deactivating ends every session the agent holds at once; re-activating does not revive them; a role change applies on the agent’s next request. Leaving the agency without an active ADMIN is 409 LAST_ADMIN. The change applies only if you are still an active ADMIN when it is written: 401 when your session ended meanwhile, 403 when you were demoted. Changes of one agent sent at once all apply (each writes only its fields); only if they keep colliding is the answer 429 RATE_LIMITED with Retry-After. ${adminOnly} Another agency’s agent is 404, worded as an unknown one.`,
    tag: 'Agency',
    request: UpdateAgentRequest,
    requestExample: { agent_id: agent.id, active: false },
    status: 200,
    response: success(AgencyAgent),
    responseExample: {
      success: true,
      data: {
        ...agent,
        active: false,
        updated_at: '2026-11-24T17:40:00Z',
        updated_by: agent.created_by,
      },
    },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'LAST_ADMIN', 'RATE_LIMITED'],
    errorExamples: { NOT_FOUND: new NotFoundError('No such agent in your agency.') },
  },
} satisfies Record<string, Operation>;
