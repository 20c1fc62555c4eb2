import { readEventsConfig } from '#shared/config.ts';
import { createNoticeSender } from '#shared/events/events-context.ts';
import type { NoticeSender } from '#shared/events/notice-sender.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/resend.ts';

/** functions/bookings/resend.ts over the tests' own context, e-mailing as the environment says (notices.jsonl). */
export const handler = createHandler(testContext, await createNoticeSender(readEventsConfig()));

/** The same over another sender (SES with its client stubbed). */
export const resendThrough = (notices: NoticeSender) => createHandler(testContext, notices);
