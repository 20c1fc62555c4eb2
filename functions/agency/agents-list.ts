import { ListAgentsRequest, listAgents } from '#shared/agency/manage-agents.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const list = listAgents(ctx);
  return httpHandler(
    route('agency-agents-list'),
    ListAgentsRequest,
    async ({ body, session }) => {
      const page = await list(body, session);
      return { status: 200, data: page.agents, meta: { next_cursor: page.nextCursor } };
    },
    ctx,
  );
}

export const handler = createHandler(context);
