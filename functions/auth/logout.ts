import { logout, logoutRequest } from '#shared/auth/logout.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signedOutReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const revoke = logout(ctx);
  return httpHandler(
    route('logout'),
    logoutRequest,
    async ({ session, body }) => {
      await revoke(session, body);
      return signedOutReply();
    },
    ctx,
  );
}

export const handler = createHandler(context);
