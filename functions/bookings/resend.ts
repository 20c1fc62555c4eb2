import { readEventsConfig } from '#shared/config.ts';
import { type AppContext, context } from '#shared/context.ts';
import { createNoticeSender, lazyNoticeSender } from '#shared/events/events-context.ts';
import { resendItinerary, resendRequest } from '#shared/events/itinerary.ts';
import type { NoticeSender } from '#shared/events/notice-sender.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`, e-mailing through `notices` (SES deployed, notices.jsonl locally). */
export function createHandler(ctx: AppContext, notices: NoticeSender) {
  const resend = resendItinerary({ ...ctx, notices });
  return httpHandler(
    route('booking-resend'),
    resendRequest,
    async ({ body, session }) => ({ status: 202, data: await resend(body, session) }),
    ctx,
  );
}

// Read at cold start (a bad setting fails it); the SES client is made on the first send.
const config = readEventsConfig();
const notices = lazyNoticeSender(() => createNoticeSender(config));
export const handler = createHandler(context, notices);
