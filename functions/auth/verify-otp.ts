import { VerifyOtpRequest, verifyOtp } from '#shared/auth/verify-otp.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ auth: false, body: VerifyOtpRequest }, verifyOtp(context));
