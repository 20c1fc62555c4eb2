import { readEventsConfig } from '#shared/config.ts';
import { createDeliveryDeps, createSqsDeliveryQueue } from '#shared/events/events-context.ts';
import { deliveryHandler } from '#shared/events/handlers.ts';

/** The delivery function: one webhook attempt per queue message, retried through the queue. */
const config = readEventsConfig();
export const handler = deliveryHandler({
  ...(await createDeliveryDeps(config)),
  queue: await createSqsDeliveryQueue(config),
});
