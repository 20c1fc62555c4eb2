import { type AppContext, context } from '#shared/context.ts';
import { PingWebhookRequest, pingWebhook } from '#shared/events/ping.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const ping = pingWebhook(ctx);
  return httpHandler(
    route('agency-webhooks-ping'),
    PingWebhookRequest,
    async ({ body, session }) => ({ status: 202, data: await ping(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
