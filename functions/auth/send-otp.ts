import { SendOtpRequest, sendOtp } from '#shared/auth/send-otp.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import type { CodeSender } from '#shared/notify/code-sender.ts';
import { createCodeSender } from '#shared/notify/create-code-sender.ts';
import { route } from '#shared/routes.ts';

/** The send-otp handler over `ctx`, delivering codes through `sender`. */
export function createHandler(ctx: AppContext, sender: CodeSender) {
  const { OTP_SEND_MIN_MS: minResponseMs, AGENCY_CODES_PER_HOUR: agencyCodesPerHour } = ctx.config;
  const send = sendOtp({ ...ctx, sender, minResponseMs, agencyCodesPerHour });
  return httpHandler(
    route('send-otp'),
    SendOtpRequest,
    async ({ body }) => {
      const sent = await send(body);
      return { status: 202, data: { expires_in: sent.expiresIn, resend_after: sent.resendAfter } };
    },
    ctx,
  );
}

export const handler = createHandler(context, await createCodeSender());
