import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock } from '#shared/clock.ts';
import type { DeliveryDeps } from '#shared/events/deliver.ts';
import { createDelivery, type DeliveryMessage } from '#shared/events/delivery-item.ts';
import { fileNoticeSender, NOTICES_FILE } from '#shared/events/notice-sender.ts';
import { systemResolver } from '#shared/events/webhook-url.ts';
import { createLogger } from '#shared/log.ts';
import { handler as createWebhook } from '#test/helpers/routes/agency/webhooks-create.ts';
import { ensureTable } from '../../infra/local/bootstrap.ts';
import { startEventsPipeline } from '../../infra/local/events-pipeline.ts';
import { testTable } from './agents.ts';
import { invoke } from './api.ts';
import { completeJsonLines } from './json-lines.ts';
import type { TestSession } from './session.ts';
import { testContext } from './test-context.ts';
import type { Receiver } from './webhook-receiver.ts';

export const dataDir = process.env.DATA_DIR ?? '';

/**
 * The local event pipeline over the test file's table and its real stream, retry delays x0.001. The
 * stream is turned on here: a file's table is made without one (integration-setup.ts), and only what
 * is written from now on is in it. It polls ten times a second while records come: the handlers a test
 * calls are not behind the dev server, whose nudge after each write is what `npm start` waits on.
 */
export async function startTestPipeline(
  options: {
    timeScale?: number;
    timeoutMs?: number;
    pace?: Parameters<typeof startEventsPipeline>[0]['pace'];
  } = {},
) {
  await ensureTable(testTable.db, testTable.tableName);
  const base = { ...testTable, clock: systemClock(), log: createLogger('info', { stage: 'test' }) };
  return startEventsPipeline({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: testTable.tableName,
    dataDir,
    pace: { busyPollMs: 100, ...options.pace },
    events: { ...base, notices: fileNoticeSender(dataDir) },
    deliveries: {
      ...base,
      keys: testContext.keys,
      urlPolicy: 'local',
      resolve: systemResolver,
      timeScale: options.timeScale ?? 0.001,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    },
  });
}

export interface NoticeLine {
  event_id: string;
  type: string;
  to: string;
  booking_id: string;
  pnr: string;
  subject: string;
  text: string;
  sent_at: string;
}

/** Every notice written to the test file's notices.jsonl. */
export async function readNotices(): Promise<NoticeLine[]> {
  const text = await readFile(join(dataDir, NOTICES_FILE), 'utf8').catch(() => '');
  return completeJsonLines<NoticeLine>(text);
}

/** Registers `receiver` as an endpoint of the session's agency (the ADMIN route) and gives it the secret. */
export async function registerReceiver(admin: TestSession, receiver: Receiver, events?: string[]) {
  const answer = await invoke(createWebhook, {
    path: '/api/agency/webhooks/create',
    headers: admin.headers,
    body: { url: receiver.url, ...(events && { events }) },
  });
  if (answer.status !== 201) throw new Error(`webhook create failed: ${JSON.stringify(answer.body)}`);
  receiver.useSecret(answer.body.data.secret);
  return answer.body.data as { id: string; secret: string };
}

/** The delivery function's dependencies over the test file's table (local URL rules, a queue that drops). */
export function testDeliveryDeps(overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    ...testTable,
    clock: systemClock(),
    log: createLogger('info'),
    keys: testContext.keys,
    queue: { enqueue: async () => undefined },
    urlPolicy: 'local',
    resolve: systemResolver,
    timeScale: 1,
    ...overrides,
  };
}

/**
 * A delivery of event `eventId` to endpoint `webhookId`, its first attempt due now, as the events
 * function creates it; returns the queue message for that attempt.
 */
export async function pendingDelivery(
  agencyId: string,
  webhookId: string,
  eventId: string,
  type: 'booking.confirmed' | 'booking.cancelled' = 'booking.confirmed',
): Promise<DeliveryMessage> {
  const now = Date.now();
  await createDelivery(testTable, {
    event_id: eventId,
    webhook_id: webhookId,
    agency_id: agencyId,
    type,
    occurred_at: '2026-12-01T09:00:00Z',
    data: { booking_id: 'bkg_test', version: type === 'booking.confirmed' ? 1 : 2 },
    first_at: now,
  });
  return { event_id: eventId, webhook_id: webhookId, attempt: 1, due_at: now };
}
