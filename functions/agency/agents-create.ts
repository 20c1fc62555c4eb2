import { CreateAgentRequest, createAgent } from '#shared/agency/manage-agents.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const create = createAgent({ ...ctx, allowedPhoneCountryCodes: ctx.config.ALLOWED_PHONE_COUNTRY_CODES });
  return httpHandler(
    route('agency-agents-create'),
    CreateAgentRequest,
    async ({ body, session }) => ({ status: 201, data: await create(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
