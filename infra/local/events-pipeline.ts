import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { type DeliveryDeps, handleDeliveryMessage } from '#shared/events/deliver.ts';
import type { DeliveryMessage } from '#shared/events/delivery-item.ts';
import { localDeliveryQueue } from '#shared/events/delivery-queue.ts';
import { type EventsDeps, handleStreamRecords } from '#shared/events/publish.ts';

/**
 * How often each shard is asked for new records while the table is in use. A request that may write
 * (any method but GET) asks at once (`nudge`, infra/local/dev-server.ts), ending whatever pause the
 * pipeline is in, and a nudge that comes while a poll is under way asks once more as soon as it ends:
 * what an API call writes is read as soon as it is written, whatever this pace. The pace is for what
 * arrives otherwise (the sweep's writes, another process's on the same DATA_DIR, records still coming).
 * Two polls a second: ten, before nudges ended busy pauses too, cost `npm start` 6 % of a core (node and
 * DynamoDB Local) through every busy spell, mostly to find nothing.
 */
const POLL_MS = 500;
/**
 * How often once nothing has come for {@link AWAKE_FOR_MS}: one a second, under 2 % of a core. What
 * the sweep writes (every 15 s) and what another process writes to the same DATA_DIR is read within a
 * second.
 */
const QUIET_POLL_MS = 1000;
/** How long polls stay at {@link POLL_MS} after the last record read or the last nudge. */
const AWAKE_FOR_MS = 10_000;
/** A record that fails this many times in a row is set aside (deployed: 10 retries, infra/events.ts). */
const MAX_RECORD_TRIES = 3;
/** GetRecords errors after which a shard's iterator is never good again. */
const STALE_ITERATOR = new Set(['TrimmedDataAccessException', 'ExpiredIteratorException']);
/** A delivery message whose handling failed (not its attempt: the table, say) is tried again this often. */
const MAX_MESSAGE_TRIES = 5;

const EVENTS_DEAD_LETTERS_FILE = 'events-dead-letters.jsonl';
/** Where the pipeline stopped in the stream: the last record handled per shard (Lambda's checkpoint). */
const EVENTS_POSITION_FILE = 'events-stream-position.json';

/** The stream's position as the file keeps it: the stream, the last record handled per shard, closed shards read to their end. */
interface StreamPosition {
  stream_arn: string;
  shards: Record<string, string>;
  finished: string[];
}

/** The position kept for `streamArn`; none for another stream (the table was made again) or no file. */
async function readPosition(file: string, streamArn: string): Promise<StreamPosition> {
  const fresh: StreamPosition = { stream_arn: streamArn, shards: {}, finished: [] };
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as Partial<StreamPosition>;
    if (kept.stream_arn !== streamArn || typeof kept.shards !== 'object' || !kept.shards) return fresh;
    return { ...fresh, shards: { ...kept.shards }, finished: [...(kept.finished ?? [])] };
  } catch {
    return fresh;
  }
}

interface EventsPipelineOptions {
  readonly endpoint: string;
  readonly tableName: string;
  /** Where records that kept failing are written (`events-dead-letters.jsonl`), like the deployed DLQ. */
  readonly dataDir: string;
  readonly events: Omit<EventsDeps, 'queue'>;
  readonly deliveries: Omit<DeliveryDeps, 'queue'>;
  /** The pace, for tests: {@link POLL_MS}, {@link QUIET_POLL_MS} and {@link AWAKE_FOR_MS} unless given. */
  readonly pace?: {
    readonly busyPollMs?: number;
    readonly quietPollMs?: number;
    readonly awakeForMs?: number;
  };
}

interface EventsPipeline {
  /** Records read from the stream so far (events or not). */
  recordsRead(): number;
  /** Delivery messages waiting in the in-process queue. */
  pendingDeliveries(): number;
  /** Polls of the stream ended so far (each asks every shard for new records). */
  polls(): number;
  /** Something may have been written: poll now (or again once the poll under way ends), and stay awake. */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * The deployed event pipeline on one machine: DynamoDB Local's stream read through the DynamoDB
 * Streams API (every shard polled, in order), the events function's code on each batch, with the
 * deployed mapping's retry limit and its dead-letter queue as a file, and an in-process delivery queue
 * running the delivery function's code when each attempt is due. Like Lambda's event source mapping it
 * remembers where it stopped: after each batch the last record handled per shard is written to
 * `<dataDir>/events-stream-position.json`, and a restart goes on after it (a new stream, or a shard
 * never read, from its oldest record). A batch handled but not yet recorded when the process died is
 * read again; the notice and delivery guards make that harmless.
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
  const queue = localDeliveries(options.deliveries, log);
  const events: EventsDeps = { ...options.events, queue };
  const positionFile = join(options.dataDir, EVENTS_POSITION_FILE);
  const position = await readPosition(positionFile, streamArn);
  const finished = new Set<string>(position.finished);
  const writer = positionWriter(positionFile, position, finished);
  const reading: StreamReading = {
    streams,
    streamArn,
    position,
    finished,
    log,
    handle: recordHandler(events, options.dataDir),
    save: writer.save,
    state: { running: true, read: 0, polls: 0 },
    iterators: new Map(),
    pacer: pollPacer(options.pace),
  };
  const loop = pollStream(reading);

  return {
    recordsRead: () => reading.state.read,
    pendingDeliveries: () => queue.pending(),
    polls: () => reading.state.polls,
    nudge: () => reading.pacer.nudge(),
    async stop() {
      reading.state.running = false;
      reading.pacer.nudge();
      queue.close();
      await loop;
      await writer
        .settled()
        .catch((error: unknown) => log.error('stream position not saved', { error: (error as Error)?.name }));
      streams.destroy();
    },
  };
}

type Logger = EventsDeps['log'];

/**
 * The in-process delivery queue, running the delivery function's code when each attempt is due. A
 * message whose handling failed (not its attempt: the table, say) is tried again a second later, as
 * SQS would after its visibility timeout, up to {@link MAX_MESSAGE_TRIES} times.
 */
function localDeliveries(deliveries: EventsPipelineOptions['deliveries'], log: Logger) {
  const deliver = async (message: DeliveryMessage, tries = 1): Promise<void> => {
    let result: 'done' | 'retry-later' | 'error';
    try {
      result = await handleDeliveryMessage(message, { ...deliveries, queue });
    } catch (error) {
      log.error('delivery failed', { error: (error as Error)?.name, event_id: message.event_id });
      result = 'error';
    }
    if (result === 'done' || tries >= MAX_MESSAGE_TRIES) return;
    await sleep(1000);
    await deliver(message, tries + 1);
  };
  const queue = localDeliveryQueue((message) => deliver(message));
  return queue;
}

/** Writes the stream's position one write at a time (shards are polled side by side), each whole: a temporary file renamed over. */
function positionWriter(file: string, position: StreamPosition, finished: Set<string>) {
  let saving = Promise.resolve();
  const save = () => {
    saving = saving
      .catch(() => undefined)
      .then(async () => {
        const next = { ...position, finished: [...finished] };
        await writeFile(`${file}.tmp`, JSON.stringify(next), { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      });
    return saving;
  };
  return { save, settled: () => saving };
}

/**
 * The events function's code on a batch, in order; a record failing {@link MAX_RECORD_TRIES} times
 * is set aside (written to the dead-letter file) and the rest go on.
 */
function recordHandler(events: EventsDeps, dataDir: string) {
  const deadLetter = async (record: _Record) => {
    events.log.error('event record set aside after retries', {
      sequence_number: record.dynamodb?.SequenceNumber,
    });
    const line = { sequence_number: record.dynamodb?.SequenceNumber, event_name: record.eventName };
    await appendFile(join(dataDir, EVENTS_DEAD_LETTERS_FILE), `${JSON.stringify(line)}\n`);
  };
  return async (records: _Record[]) => {
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
}

/** What reading the stream shares: where each shard is, what was handled, and whether to go on. */
interface StreamReading {
  readonly streams: DynamoDBStreamsClient;
  readonly streamArn: string;
  readonly position: StreamPosition;
  readonly finished: Set<string>;
  readonly log: Logger;
  readonly handle: (records: _Record[]) => Promise<void>;
  readonly save: () => Promise<void>;
  readonly state: { running: boolean; read: number; polls: number };
  readonly pacer: PollPacer;
  /** Each shard's next iterator; none once read to its end. */
  readonly iterators: Map<string, string | undefined>;
}

/** Every shard, polled side by side until stopped; a child only once its parent is read to its end, as Lambda does. */
async function pollStream(reading: StreamReading): Promise<void> {
  const { streams, streamArn, finished, log, state } = reading;
  let lastDescribe = 0;
  let shards: { id: string; parent?: string }[] = [];
  while (state.running) {
    try {
      if (Date.now() - lastDescribe > 2000 || shards.every(({ id }) => finished.has(id))) {
        const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
        shards = (StreamDescription?.Shards ?? []).flatMap((shard) =>
          shard.ShardId ? [{ id: shard.ShardId, parent: shard.ParentShardId }] : [],
        );
        lastDescribe = Date.now();
      }
      const known = new Set(shards.map(({ id }) => id));
      const ready = shards.filter(
        ({ id, parent }) => !finished.has(id) && (!parent || !known.has(parent) || finished.has(parent)),
      );
      const before = state.read;
      await Promise.all(ready.map(({ id }) => pollShard(reading, id)));
      if (state.read > before) reading.pacer.keepAwake();
    } catch (error) {
      log.error('stream poll failed', { error: (error as Error)?.name });
    }
    // Counted as it ends, and the pause begins in the same step: a count seen is a pause begun.
    state.polls += 1;
    await reading.pacer.pause();
  }
}

interface PollPacer {
  /** Polls stay at {@link POLL_MS} for a while: records came. */
  keepAwake(): void;
  /** As keepAwake, and the pause ends now; during a poll, the pause after it does not begin. */
  nudge(): void;
  /** The pause before the next poll: {@link POLL_MS} while awake, the quiet pace after. */
  pause(): Promise<void>;
}

/** When the stream is asked next: often while records come or writes are made, seldom when all is quiet. */
function pollPacer(pace: EventsPipelineOptions['pace'] = {}): PollPacer {
  const awakeForMs = pace.awakeForMs ?? AWAKE_FOR_MS;
  const busyPollMs = pace.busyPollMs ?? POLL_MS;
  const quietPollMs = pace.quietPollMs ?? QUIET_POLL_MS;
  let awakeUntil = Date.now() + awakeForMs;
  let endPause: (() => void) | undefined;
  let nudgedDuringPoll = false;
  const keepAwake = () => {
    awakeUntil = Date.now() + awakeForMs;
  };
  return {
    keepAwake,
    nudge() {
      keepAwake();
      const end = endPause;
      endPause = undefined;
      if (end) end();
      else nudgedDuringPoll = true;
    },
    async pause() {
      if (nudgedDuringPoll) {
        nudgedDuringPoll = false;
        return;
      }
      const quiet = Date.now() >= awakeUntil;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, quiet ? quietPollMs : busyPollMs);
        endPause = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      endPause = undefined;
    },
  };
}

/** One shard's new records, page by page, each batch handled and its last record kept as the position. */
async function pollShard(reading: StreamReading, shardId: string): Promise<void> {
  const { streams, iterators, position, finished, state } = reading;
  let iterator = iterators.has(shardId) ? iterators.get(shardId) : await firstIterator(reading, shardId);
  while (state.running && iterator) {
    let page: GetRecordsCommandOutput;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
    } catch (error) {
      // An iterator refused once is refused for good (DynamoDB Local calls it trimmed when other
      // tables write at the same moment): forget it, and the next poll asks for a new one after
      // the last record handled, as Lambda's mapping would.
      if (STALE_ITERATOR.has((error as Error)?.name)) iterators.delete(shardId);
      throw error;
    }
    const { Records = [], NextShardIterator } = page;
    state.read += Records.length;
    await reading.handle(Records);
    const last = Records.at(-1)?.dynamodb?.SequenceNumber;
    if (last) position.shards[shardId] = last;
    iterator = NextShardIterator;
    iterators.set(shardId, iterator);
    if (!iterator) finished.add(shardId);
    if (last || !iterator) await reading.save();
    if (Records.length === 0) break;
  }
  if (!iterator) finished.add(shardId);
}

/** Where a shard is read from: just after the last record handled, or its oldest record kept. */
async function firstIterator(reading: StreamReading, shardId: string): Promise<string | undefined> {
  const { streams, streamArn, position, log } = reading;
  const after = position.shards[shardId];
  const from = (type: 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER') =>
    streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(type === 'AFTER_SEQUENCE_NUMBER' && { SequenceNumber: after }),
      }),
    );
  if (!after) return (await from('TRIM_HORIZON')).ShardIterator;
  try {
    return (await from('AFTER_SEQUENCE_NUMBER')).ShardIterator;
  } catch (error) {
    // The record is past the stream's retention: everything after it that is kept is older news
    // than nothing, as Lambda's mapping would read it (from the oldest kept).
    if ((error as Error)?.name !== 'TrimmedDataAccessException') throw error;
    log.warn('stream position past retention: reading from the oldest record', { shard: shardId });
    return (await from('TRIM_HORIZON')).ShardIterator;
  }
}
