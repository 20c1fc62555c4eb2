import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { type DeliveryDeps, handleDeliveryMessage } from '#shared/events/deliver.ts';
import type { DeliveryMessage } from '#shared/events/delivery-item.ts';
import { localDeliveryQueue } from '#shared/events/delivery-queue.ts';
import { type EventsDeps, handleStreamRecords } from '#shared/events/publish.ts';

/** How often each shard is asked for new records. */
const POLL_MS = 100;
/** A record that fails this many times in a row is set aside (deployed: 10 retries, infra/events.ts). */
const MAX_RECORD_TRIES = 3;
/** A delivery message whose handling failed (not its attempt: the table, say) is tried again this often. */
const MAX_MESSAGE_TRIES = 5;

export const EVENTS_DEAD_LETTERS_FILE = 'events-dead-letters.jsonl';

export interface EventsPipelineOptions {
  readonly endpoint: string;
  readonly tableName: string;
  /** Where records that kept failing are written (`events-dead-letters.jsonl`), like the deployed DLQ. */
  readonly dataDir: string;
  readonly events: Omit<EventsDeps, 'queue'>;
  readonly deliveries: Omit<DeliveryDeps, 'queue'>;
}

export interface EventsPipeline {
  /** Records read from the stream so far (events or not). */
  recordsRead(): number;
  /** Delivery messages waiting in the in-process queue. */
  pendingDeliveries(): number;
  stop(): Promise<void>;
}

/**
 * The deployed event pipeline on one machine: DynamoDB Local's stream read through the DynamoDB
 * Streams API (every shard polled, in order, from the oldest record kept: the notice and delivery
 * guards make re-reading after a restart harmless), the events function's code on each batch, with the
 * deployed mapping's retry limit and its dead-letter queue as a file, and an in-process delivery queue
 * running the delivery function's code when each attempt is due.
 */
export async function startEventsPipeline(options: EventsPipelineOptions): Promise<EventsPipeline> {
  const local = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint, ...local });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, ...local });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error('the local table has no stream');

  const { log } = options.events;
  const deliver = async (message: DeliveryMessage, tries = 1): Promise<void> => {
    let result: 'done' | 'retry-later' | 'error';
    try {
      result = await handleDeliveryMessage(message, { ...options.deliveries, queue });
    } catch (error) {
      log.error('delivery failed', { error: (error as Error)?.name, event_id: message.event_id });
      result = 'error';
    }
    if (result === 'done' || tries >= MAX_MESSAGE_TRIES) return;
    // As SQS would after its visibility timeout, though sooner.
    await sleep(1000);
    await deliver(message, tries + 1);
  };
  const queue = localDeliveryQueue((message) => deliver(message));
  const events: EventsDeps = { ...options.events, queue };

  let running = true;
  let read = 0;
  const iterators = new Map<string, string | undefined>();
  const finished = new Set<string>();

  const deadLetter = async (record: _Record) => {
    log.error('event record set aside after retries', { sequence_number: record.dynamodb?.SequenceNumber });
    const line = { sequence_number: record.dynamodb?.SequenceNumber, event_name: record.eventName };
    await appendFile(join(options.dataDir, EVENTS_DEAD_LETTERS_FILE), `${JSON.stringify(line)}\n`);
  };

  /** A batch in order; a record failing MAX_RECORD_TRIES times is set aside and the rest go on. */
  const handle = async (records: _Record[]) => {
    let rest = records;
    let tries = 0;
    while (rest.length > 0) {
      const failed = await handleStreamRecords(rest, events);
      if (failed === undefined) return;
      const at = rest.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
      rest = rest.slice(Math.max(0, at));
      tries += 1;
      if (tries >= MAX_RECORD_TRIES) {
        const [poison, ...after] = rest;
        if (poison) await deadLetter(poison);
        rest = after;
        tries = 0;
      } else await sleep(50 * tries);
    }
  };

  const pollShard = async (shardId: string) => {
    let iterator = iterators.get(shardId);
    if (iterator === undefined) {
      const answer = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      iterator = answer.ShardIterator;
    }
    while (running && iterator) {
      const { Records = [], NextShardIterator } = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }),
      );
      read += Records.length;
      await handle(Records);
      iterator = NextShardIterator;
      iterators.set(shardId, iterator);
      if (Records.length === 0) break;
    }
    if (!iterator) finished.add(shardId);
  };

  const loop = (async () => {
    let lastDescribe = 0;
    let shards: { id: string; parent?: string }[] = [];
    while (running) {
      try {
        if (Date.now() - lastDescribe > 2000 || shards.every(({ id }) => finished.has(id))) {
          const { StreamDescription } = await streams.send(
            new DescribeStreamCommand({ StreamArn: streamArn }),
          );
          shards = (StreamDescription?.Shards ?? []).flatMap((shard) =>
            shard.ShardId ? [{ id: shard.ShardId, parent: shard.ParentShardId }] : [],
          );
          lastDescribe = Date.now();
        }
        const known = new Set(shards.map(({ id }) => id));
        // Shards in parallel; a child only once its parent is read to its end, as Lambda does.
        const ready = shards.filter(
          ({ id, parent }) => !finished.has(id) && (!parent || !known.has(parent) || finished.has(parent)),
        );
        await Promise.all(ready.map(({ id }) => pollShard(id)));
      } catch (error) {
        log.error('stream poll failed', { error: (error as Error)?.name });
      }
      await sleep(POLL_MS);
    }
  })();

  return {
    recordsRead: () => read,
    pendingDeliveries: () => queue.pending(),
    async stop() {
      running = false;
      queue.close();
      await loop;
      streams.destroy();
    },
  };
}
