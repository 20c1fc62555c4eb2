import { refresh, refreshRequest } from '#shared/auth/refresh.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signedInReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const renew = refresh(ctx);
  return httpHandler(
    route('refresh'),
    refreshRequest,
    async ({ session, body }) =>
      signedInReply(await renew(session), { cookieOnly: body.cookie_only === true }),
    ctx,
  );
}

export const handler = createHandler(context);
