import { SendOtpRequest, sendOtp } from '#shared/auth/send-otp.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createCodeSender } from '#shared/notify/create-code-sender.ts';

const sender = await createCodeSender();

export const handler = httpHandler(
  { auth: false, body: SendOtpRequest },
  sendOtp({ ...context, sender, minResponseMs: context.config.OTP_SEND_MIN_MS }),
);
