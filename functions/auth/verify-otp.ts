import { VerifyOtpRequest, verifyOtp } from '#shared/auth/verify-otp.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signedInReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const verify = verifyOtp(ctx);
  return httpHandler(
    route('verify-otp'),
    VerifyOtpRequest,
    async ({ body }) => signedInReply(await verify(body), { cookieOnly: body.cookieOnly }),
    ctx,
  );
}

export const handler = createHandler(context);
