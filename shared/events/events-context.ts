import { loadSigningKeys } from '../auth/signing-keys.ts';
import { AWS_CLIENT_OPTIONS } from '../aws-client-options.ts';
import { systemClock } from '../clock.ts';
import type { EventsConfig } from '../config.ts';
import { createDocumentClient } from '../db/client.ts';
import { createLogger } from '../log.ts';
import type { DeliveryDeps } from './deliver.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import type { NoticeSender } from './notice-sender.ts';
import type { EventsDeps } from './publish.ts';
import { systemResolver } from './webhook-url.ts';

/**
 * Where notices go: SES from the stage's sender, or `<DATA_DIR>/notices.jsonl` locally (the events
 * function's, and booking/resend's).
 */
export async function createNoticeSender(config: EventsConfig): Promise<NoticeSender> {
  if (config.NOTICE_SENDER === 'file' && config.DATA_DIR) {
    const { fileNoticeSender } = await import('./notice-sender.ts');
    return fileNoticeSender(config.DATA_DIR);
  }
  const [{ SESClient }, { sesNoticeSender }] = await Promise.all([
    import('@aws-sdk/client-ses'),
    import('./notice-sender.ts'),
  ]);
  return sesNoticeSender(new SESClient(AWS_CLIENT_OPTIONS), {
    from: config.SES_FROM_ADDRESS ?? '',
    configurationSet: config.SES_CONFIGURATION_SET,
  });
}

/**
 * A sender made on its first send, once: a route that sends only now and then (booking/resend) does
 * not load the SES client at its cold start (BENCHMARKS.md, P1b).
 */
export function lazyNoticeSender(make: () => Promise<NoticeSender>): NoticeSender {
  let made: Promise<NoticeSender> | undefined;
  return {
    async send(notice) {
      // A make that failed (SES's module not loaded, say) is tried again on the next send, not kept.
      made ??= make().catch((error: unknown) => {
        made = undefined;
        throw error;
      });
      return (await made).send(notice);
    },
  };
}

/** The SQS delivery queue the stack names (DELIVERY_QUEUE_URL). */
export async function createSqsDeliveryQueue(config: EventsConfig): Promise<DeliveryQueue> {
  const [{ SQSClient }, { sqsDeliveryQueue }] = await Promise.all([
    import('@aws-sdk/client-sqs'),
    import('./delivery-queue.ts'),
  ]);
  if (!config.DELIVERY_QUEUE_URL) throw new Error('DELIVERY_QUEUE_URL is not set');
  return sqsDeliveryQueue(new SQSClient(AWS_CLIENT_OPTIONS), config.DELIVERY_QUEUE_URL);
}

/** What both event functions share, from their configuration: the table, the clock and the log. */
function tableContext(config: EventsConfig) {
  return {
    db: createDocumentClient(config.DYNAMODB_ENDPOINT, config.AWS_REGION),
    tableName: config.TABLE_NAME,
    clock: systemClock(),
    log: createLogger(config.LOG_LEVEL, { stage: config.STAGE }),
  };
}

/** The events function's dependencies but its queue, built once per cold start. */
export async function createEventsDeps(config: EventsConfig): Promise<Omit<EventsDeps, 'queue'>> {
  return { ...tableContext(config), notices: await createNoticeSender(config) };
}

/** The delivery function's dependencies: also the key webhook secrets are sealed with. */
export async function createDeliveryDeps(config: EventsConfig): Promise<Omit<DeliveryDeps, 'queue'>> {
  const table = tableContext(config);
  const keys = await loadSigningKeys(
    { secretId: config.SIGNING_KEY_SECRET_ID, file: config.SIGNING_KEY_FILE },
    table.db.config,
  );
  return {
    ...table,
    keys,
    urlPolicy: config.WEBHOOK_URL_POLICY,
    resolve: systemResolver,
    timeScale: config.EVENTS_TIME_SCALE,
  };
}
