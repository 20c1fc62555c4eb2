import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryMessage } from './delivery-item.ts';
import { MAX_QUEUE_DELAY_SECONDS } from './retry-schedule.ts';

/**
 * Holds webhook attempts until they are due: SQS with per-message delays when deployed (the wait
 * lives in AWS, not in a sleeping function), an in-process timer locally. A message arriving before
 * its `due_at` is enqueued again for the rest of the wait.
 */
export interface DeliveryQueue {
  enqueue(message: DeliveryMessage, now: number): Promise<void>;
}

/** Seconds to hold `message` back now: what remains of its wait, at most SQS's 15 minutes. */
const queueDelaySeconds = (message: DeliveryMessage, now: number) =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((message.due_at - now) / 1000)));

export function sqsDeliveryQueue(client: SQSClient, queueUrl: string): DeliveryQueue {
  return {
    async enqueue(message, now) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          DelaySeconds: queueDelaySeconds(message, now),
        }),
      );
    },
  };
}

/**
 * The dev server's queue: each message is handed to `deliver` when due, in this process (messages
 * waiting when the server stops are lost; the delivery items stay `pending`). No 15-minute hops: the
 * timer waits the whole delay, already scaled by EVENTS_TIME_SCALE.
 */
export function localDeliveryQueue(deliver: (message: DeliveryMessage) => Promise<void>): DeliveryQueue & {
  /** Messages enqueued and not yet handled. */
  pending(): number;
  /** Drops every message still waiting (the server is stopping). */
  close(): void;
} {
  const timers = new Set<NodeJS.Timeout>();
  let handling = 0;
  let closed = false;
  return {
    async enqueue(message, now) {
      if (closed) return;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          handling += 1;
          void deliver(message).finally(() => {
            handling -= 1;
          });
        },
        Math.max(0, message.due_at - now),
      );
      timer.unref();
      timers.add(timer);
    },
    pending: () => timers.size + handling,
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
