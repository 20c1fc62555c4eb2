import { changeAgent, UpdateAgentRequest } from '#shared/agency/agents.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const change = changeAgent(context);

export const handler = httpHandler(
  route('agency-agents-update'),
  UpdateAgentRequest,
  async ({ body, session }) => ({ status: 200, data: await change(body, session) }),
  context,
);
