import { LogoutRequest, logout } from '#shared/auth/logout.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signedOutReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

const revoke = logout(context);

export const handler = httpHandler(
  route('logout'),
  LogoutRequest,
  async ({ session }) => {
    await revoke(session);
    return signedOutReply();
  },
  context,
);
