import { readWebhookUrlPolicy } from '#shared/config.ts';
import { type AppContext, context } from '#shared/context.ts';
import { CreateWebhookRequest, createWebhook } from '#shared/events/manage-webhooks.ts';
import { type Resolver, systemResolver, type WebhookUrlPolicy } from '#shared/events/webhook-url.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`; the URL policy and resolver are the process's unless a test gives its own. */
export function createHandler(
  ctx: AppContext,
  urls: { policy: WebhookUrlPolicy; resolve: Resolver } = {
    policy: readWebhookUrlPolicy(),
    resolve: systemResolver,
  },
) {
  const create = createWebhook({ ...ctx, urlPolicy: urls.policy, resolve: urls.resolve });
  return httpHandler(
    route('agency-webhooks-create'),
    CreateWebhookRequest,
    async ({ body, session }) => ({ status: 201, data: await create(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
