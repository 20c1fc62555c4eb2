import { LogoutRequest, logout } from '#shared/auth/logout.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: true, body: LogoutRequest }, logout(context));
