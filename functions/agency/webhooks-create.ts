import { readWebhookUrlPolicy } from '#shared/config.ts';
import { type AppContext, context } from '#shared/context.ts';
import { CreateWebhookRequest, createWebhook } from '#shared/events/manage-webhooks.ts';
import { systemResolver, type WebhookUrlRules } from '#shared/events/webhook-url.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** Where webhooks may point in this process: the configured policy, checked with the system's DNS. */
const processUrls: WebhookUrlRules = { policy: readWebhookUrlPolicy(), resolve: systemResolver };

/** The route's handler over `ctx`; the URL rules are the process's unless a test gives its own. */
export function createHandler(ctx: AppContext, urls: WebhookUrlRules = processUrls) {
  const create = createWebhook({ ...ctx, urlPolicy: urls.policy, resolve: urls.resolve });
  return httpHandler(
    route('agency-webhooks-create'),
    CreateWebhookRequest,
    async ({ body, session }) => ({ status: 201, data: await create(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
