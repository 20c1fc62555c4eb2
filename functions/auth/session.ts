import { currentSession, sessionRequest } from '#shared/auth/current-session.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { currentSessionReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  return httpHandler(
    route('session'),
    sessionRequest,
    async ({ session, sessionVia }) => currentSessionReply(currentSession(session), sessionVia),
    ctx,
  );
}

export const handler = createHandler(context);
