import { VerifyOtpRequest, verifyOtp } from '#shared/auth/verify-otp.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signedInReply } from '#shared/http/session-replies.ts';
import { route } from '#shared/routes.ts';

const verify = verifyOtp(context);

export const handler = httpHandler(
  route('verify-otp'),
  VerifyOtpRequest,
  async ({ body }) => signedInReply(await verify(body)),
  context,
);
