import { readEventsConfig } from '#shared/config.ts';
import { createEventsDeps, createSqsDeliveryQueue } from '#shared/events/events-context.ts';
import { streamHandler } from '#shared/events/handlers.ts';

/** The events function: the table's stream → traveller notices (SES) and webhook deliveries (SQS). */
const config = readEventsConfig();
export const handler = streamHandler({
  ...(await createEventsDeps(config)),
  queue: await createSqsDeliveryQueue(config),
});
