import { SendOtpRequest, sendOtp } from '#shared/auth/send-otp.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createCodeSender } from '#shared/notify/create-code-sender.ts';
import { route } from '#shared/routes.ts';

const send = sendOtp({
  ...context,
  sender: await createCodeSender(),
  minResponseMs: context.config.OTP_SEND_MIN_MS,
});

export const handler = httpHandler(
  route('send-otp'),
  SendOtpRequest,
  async ({ body }) => {
    const sent = await send(body);
    return { status: 202, data: { expires_in: sent.expiresIn, resend_after: sent.resendAfter } };
  },
  context,
);
