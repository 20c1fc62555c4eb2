import { ListAgentsRequest, listAgents } from '#shared/agency/agents.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

const list = listAgents(context);

export const handler = httpHandler(
  route('agency-agents-list'),
  ListAgentsRequest,
  async ({ body, session }) => {
    const page = await list(body, session);
    return { status: 200, data: page.agents, meta: { next_cursor: page.nextCursor } };
  },
  context,
);
