import type { QuoteFlow } from '#shared/bookings/flow.ts';
import { quoteRefund, refundQuoteRequest } from '#shared/bookings/refund-quote.ts';
import { context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { type OrderContext, orderContext, quoteFlow } from '#shared/order-context.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: OrderContext<QuoteFlow>) {
  const quote = quoteRefund(ctx);
  return httpHandler(
    route('booking-refund-quote'),
    refundQuoteRequest,
    async ({ body, session }) => ({ status: 200, data: await quote(body, session) }),
    ctx,
  );
}

export const handler = createHandler(await orderContext(context, quoteFlow));
