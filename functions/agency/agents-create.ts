import { CreateAgentRequest, createAgent } from '#shared/agency/agents.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const create = createAgent(context);

export const handler = httpHandler(
  route('agency-agents-create'),
  CreateAgentRequest,
  async ({ body, session }) => ({ status: 201, data: await create(body, session) }),
  context,
);
