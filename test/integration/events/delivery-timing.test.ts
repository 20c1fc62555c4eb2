import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readEventsConfig } from '#shared/config.ts';
import { handleDeliveryMessage } from '#shared/events/deliver.ts';
import { type DeliveryMessage, deliveryKey } from '#shared/events/delivery-item.ts';
import { sqsDeliveryQueue } from '#shared/events/delivery-queue.ts';
import { createDeliveryDeps } from '#shared/events/events-context.ts';
import { deliveryHandler } from '#shared/events/handlers.ts';
import { testTable } from '#test/helpers/agents.ts';
import { pendingDelivery, registerReceiver, testDeliveryDeps } from '#test/helpers/events.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { type SentMessage, startSqsStandIn } from '#test/helpers/sqs-stand-in.ts';
import { type Receiver, startReceiver } from '#test/helpers/webhook-receiver.ts';

/**
 * When webhook attempts happen, on the delivery function's own code: SQS holds a message back at most
 * 15 minutes, so a longer wait is taken in hops; each attempt has 10 seconds (docs/API.md §4.6).
 */
const MINUTE = 60_000;
let admin: TestSession;
const receivers: Receiver[] = [];
const standIns: Awaited<ReturnType<typeof startSqsStandIn>>[] = [];

beforeEach(async () => {
  admin = await signIn({ agencyId: `timing-${Math.random().toString(36).slice(2, 8)}`, role: 'ADMIN' });
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all([...receivers.splice(0), ...standIns.splice(0)].map((r) => r.close()));
});

/** A receiver registered as an endpoint of the admin's agency. */
async function registered(answer?: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  return { receiver, endpoint: await registerReceiver(admin, receiver) };
}

const storedDelivery = async (message: DeliveryMessage) =>
  (
    await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: deliveryKey(message.event_id, message.webhook_id),
        ConsistentRead: true,
      }),
    )
  ).Item;

/**
 * A pending delivery of event `eventId` to a receiver answering `answer`, and the delivery function
 * (EVENTS_TIME_SCALE 1, as deployed) over the SQS stand-in, on a clock that starts `early` ms before
 * the first attempt is due. `handOver` gives the function a message body as SQS would, and `later`
 * moves the clock on by a sent message's delay, as SQS hands it over when the delay is up.
 */
async function deliveryOverSqs(eventId: string, answer: Parameters<typeof startReceiver>[0], early = 0) {
  const { receiver, endpoint } = await registered(answer);
  const message = await pendingDelivery(admin.agent.agency_id, endpoint.id, eventId);
  const sqs = await startSqsStandIn();
  standIns.push(sqs);
  const clock = { at: message.due_at - early };
  const handle = deliveryHandler(
    testDeliveryDeps({ clock: { now: () => clock.at }, queue: sqsDeliveryQueue(sqs.client, sqs.queueUrl) }),
  );
  return {
    receiver,
    message,
    sqs,
    clock,
    handOver: (body: string) => handle({ Records: [{ messageId: randomUUID(), body }] } as never),
    later: (sent: SentMessage) => {
      clock.at += (sent.DelaySeconds ?? 0) * 1000;
      return sent.MessageBody;
    },
  };
}

describe('the 15-minute hops', () => {
  it('a message that arrives 40 minutes early is sent back with 900, 900, then 600 s of delay, and only then delivered', async () => {
    // The function first sees the message 40 minutes before its attempt is due.
    const run = await deliveryOverSqs('evt_hop-test-0000000000000000001', () => 204, 40 * MINUTE);
    const { receiver, message, sqs } = run;
    let body = JSON.stringify(message);
    for (let hop = 0; hop < 3; hop++) {
      expect((await run.handOver(body)).batchItemFailures).toEqual([]);
      const sent = sqs.sent[hop];
      if (!sent) throw new Error(`hop ${hop}: nothing sent`);
      expect(sent.QueueUrl).toBe(sqs.queueUrl);
      expect(JSON.parse(sent.MessageBody)).toEqual(message);
      // Not delivered early, and the attempt not even claimed.
      expect(receiver.deliveries).toEqual([]);
      expect(await storedDelivery(message)).toMatchObject({ state: 'pending', attempt: 1 });
      body = run.later(sent);
    }
    expect(sqs.sent.map((m) => m.DelaySeconds)).toEqual([900, 900, 600]);
    expect(run.clock.at).toBe(message.due_at);

    await run.handOver(body);
    expect(sqs.sent).toHaveLength(3);
    expect(receiver.deliveries.map((d) => [d.id, d.verified])).toEqual([[message.event_id, true]]);
    expect(await storedDelivery(message)).toMatchObject({ state: 'delivered' });
  });
});

describe('the retry schedule', () => {
  /** docs/API.md §4.6: retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure… */
  const PUBLISHED_GAPS_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
  /** …for at least 24 hours (the issue and the contract), then recorded as failed. */
  const AT_LEAST_MS = 24 * 3600_000;

  it('a receiver that always fails: 8 attempts at the published gaps over more than 24 h, every wait a legal SQS delay, then failed', async () => {
    const run = await deliveryOverSqs('evt_schedule-test-00000000000001', () => 503);
    const { receiver, message, sqs } = run;
    const attemptsAt: number[] = [];
    let body = JSON.stringify(message);
    for (let handed = 0; handed < 400; handed++) {
      const before = receiver.deliveries.length;
      await run.handOver(body);
      if (receiver.deliveries.length > before) attemptsAt.push(run.clock.at);
      const next = sqs.sent[handed];
      if (!next) break;
      body = run.later(next);
    }
    expect(receiver.deliveries).toHaveLength(PUBLISHED_GAPS_S.length + 1);
    const gaps = attemptsAt.slice(1).map((at, i) => (at - (attemptsAt[i] ?? 0)) / 1000);
    expect(gaps).toEqual(PUBLISHED_GAPS_S);
    expect((attemptsAt.at(-1) ?? 0) - message.due_at).toBeGreaterThanOrEqual(AT_LEAST_MS);
    // Every wait went to SQS as a delay it accepts (the stand-in refuses others), 15 minutes at most.
    expect(sqs.sent.every((m) => (m.DelaySeconds ?? 0) <= 900)).toBe(true);
    expect(new Set(receiver.deliveries.map((d) => d.id))).toEqual(new Set([message.event_id]));
    expect(await storedDelivery(message)).toMatchObject({ state: 'failed', attempt: 8 });
  });
});

describe('the delivery deadline', () => {
  it('the deployed configuration gives a receiver 10 s: at 9.999 s the attempt is open, at 10 s it is timed out and retried', async () => {
    const { receiver, endpoint } = await registered(() => 'hang');
    const message = await pendingDelivery(
      admin.agent.agency_id,
      endpoint.id,
      'evt_deadline-test-000000000000001',
    );
    const enqueued: DeliveryMessage[] = [];
    // What the delivery function is built from (functions/events/deliver.ts), on this file's environment.
    const deps = {
      ...(await createDeliveryDeps(readEventsConfig())),
      queue: { enqueue: async (next: DeliveryMessage) => void enqueued.push(next) },
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: string | undefined;
    const attempt = handleDeliveryMessage(message, deps).then((result) => {
      outcome = result;
    });
    // node:timers/promises is not on the fake clock.
    for (let waited = 0; receiver.hanging() < 1; waited += 10) {
      if (waited > 5000) throw new Error('the receiver got no request');
      await sleep(10);
    }

    vi.advanceTimersByTime(9_999);
    // Time for an attempt that had timed out to record itself (a few table writes), on the real clock.
    await Promise.race([attempt, sleep(500)]);
    expect(outcome).toBeUndefined();
    vi.advanceTimersByTime(1);
    // The rest is table writes: real I/O, bounded by a timer the fake clock does not hold.
    await Promise.race([attempt, sleep(3000)]);
    vi.useRealTimers();

    expect(outcome).toBe('done');
    const failed = capturedLogLines
      .map((line) => JSON.parse(line))
      .find((line) => line.message === 'webhook attempt failed' && line.event_id === message.event_id);
    expect(failed).toMatchObject({ reason: 'timeout', attempt: 1, retry_in_ms: 5000 });
    expect(await storedDelivery(message)).toMatchObject({ state: 'pending', attempt: 2 });
    expect(enqueued).toMatchObject([{ event_id: message.event_id, attempt: 2 }]);
  });
});
