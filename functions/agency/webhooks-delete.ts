import { type AppContext, context } from '#shared/context.ts';
import { DeleteWebhookRequest, deleteWebhook } from '#shared/events/manage-webhooks.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const remove = deleteWebhook(ctx);
  return httpHandler(
    route('agency-webhooks-delete'),
    DeleteWebhookRequest,
    async ({ body, session }) => ({ status: 200, data: await remove(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
