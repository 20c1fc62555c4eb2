import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { agencyNameUpdate } from '#shared/agency/agency-counters-item.ts';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { systemClock } from '#shared/clock.ts';
import { eventId } from '#shared/events/booking-event.ts';
import { handleDeliveryMessage } from '#shared/events/deliver.ts';
import { type DeliveryMessage, deliveryKey } from '#shared/events/delivery-item.ts';
import { localDeliveryQueue } from '#shared/events/delivery-queue.ts';
import { streamHandler } from '#shared/events/handlers.ts';
import { fileNoticeSender } from '#shared/events/notice-sender.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { createLogger } from '#shared/log.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  freshTravelDate,
  type Json,
  searchOffers,
  sellSeats,
} from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { assertMatchesWebhook } from '#test/helpers/contract.ts';
import {
  dataDir,
  pendingDelivery,
  readNotices,
  registerReceiver,
  startTestPipeline,
  testDeliveryDeps,
} from '#test/helpers/events.ts';
import { handler as listWebhooks } from '#test/helpers/routes/agency/webhooks-list.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as change } from '#test/helpers/routes/bookings/change.ts';
import { handler as changeSearch } from '#test/helpers/routes/bookings/change-search.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { type Receiver, startReceiver, until } from '#test/helpers/webhook-receiver.ts';

/**
 * The event pipeline against DynamoDB Local's real stream, exactly as `npm start` runs it: bookings
 * made by the real handlers, notices in notices.jsonl, deliveries over real HTTP to receivers that
 * verify signatures with an independent Standard Webhooks implementation. Retry delays x0.001.
 */
let pipeline: Awaited<ReturnType<typeof startTestPipeline>>;
const receivers: Receiver[] = [];
let admin: TestSession;
let date: string;
let advance: (ms: number) => void;

beforeAll(async () => {
  pipeline = await startTestPipeline({ timeoutMs: 2000 });
});
afterAll(async () => {
  await pipeline.stop();
});
beforeEach(async () => {
  advance = freezeClock();
  date = freshTravelDate();
  admin = await signIn({ agencyId: `events-${Math.random().toString(36).slice(2, 8)}`, role: 'ADMIN' });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: (n: number) => number | 'hang') {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function bookFirstOffer(index = 0): Promise<Json> {
  const offers = await searchOffers(admin, { departure_date: date });
  const answer = await book(admin, bookingBody(offers[index]));
  expect(answer.status).toBe(201);
  return answer.body.data;
}

const noticesOf = async (bookingId: string) =>
  (await readNotices()).filter((n) => n.booking_id === bookingId);

async function streamRecordsOf(bookingId: string): Promise<_Record[]> {
  const local = {
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const streams = new DynamoDBStreamsClient(local);
  const { Table } = await testTable.db.send(new DescribeTableCommand({ TableName: testTable.tableName }));
  const StreamArn = Table?.LatestStreamArn;
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
  const found: _Record[] = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    let { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({ StreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    while (ShardIterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator, Limit: 1000 }));
      found.push(
        ...(page.Records ?? []).filter((r) => r.dynamodb?.NewImage?.pk?.S === `BOOKING#${bookingId}`),
      );
      ShardIterator = page.Records?.length ? page.NextShardIterator : undefined;
    }
  }
  streams.destroy();
  return found;
}

const events = (deliveries: Receiver['deliveries'], bookingId: string) =>
  deliveries.filter((d) => d.body.data.booking_id === bookingId);

describe('event pipeline', () => {
  it('a booking and its cancellation: two notices and two verified deliveries, ordered by version', async () => {
    const hook = await receiver();
    await registerReceiver(admin, hook);
    const cancellationsOnly = await receiver();
    const cancellationEndpoint = await registerReceiver(admin, cancellationsOnly, ['booking.cancelled']);
    const booking = await bookFirstOffer();
    const cancelled = await invoke(cancel, {
      headers: admin.headers,
      body: { booking_id: booking.booking_id },
    });
    expect(cancelled.body.data.version).toBe(2);

    await until('two deliveries', () => events(hook.deliveries, booking.booking_id).length >= 2);
    await until('two notices', async () => (await noticesOf(booking.booking_id)).length >= 2);

    const received = events(hook.deliveries, booking.booking_id);
    expect(received.every((d) => d.verified)).toBe(true);
    // Each body is what openapi.json's webhooks section says that event POSTs.
    for (const delivery of received) assertMatchesWebhook(delivery.body.type, delivery.body);
    const byVersion = [...received].sort((a, b) => a.body.data.version - b.body.data.version);
    expect(byVersion.map((d) => d.body.type)).toEqual(['booking.confirmed', 'booking.cancelled']);
    expect(byVersion.map((d) => d.id)).toEqual([
      eventId(booking.booking_id, { version: 1, status: 'CONFIRMED' }),
      eventId(booking.booking_id, { version: 2, status: 'CANCELLED' }),
    ]);
    // The Booking as the API answered it at each state.
    expect(byVersion[0]?.body.data).toEqual(booking);
    expect(byVersion[1]?.body.data).toEqual(cancelled.body.data);
    expect(byVersion[0]?.body.timestamp).toBe(booking.updated_at);

    const notices = await noticesOf(booking.booking_id);
    expect(notices.map((n) => [n.type, n.to, n.pnr])).toEqual([
      ['booking.confirmed', 'traveller@example.com', booking.pnr],
      ['booking.cancelled', 'traveller@example.com', booking.pnr],
    ]);
    expect(notices[0]?.event_id).toBe(byVersion[0]?.id);
    const segment = booking.flight.outbound.segments[0];
    expect(notices[0]?.text).toContain(booking.pnr);
    expect(notices[0]?.text).toContain('Ada Lovelace');
    expect(notices[0]?.text).toContain(`${booking.total_price.toFixed(2)} ${booking.currency}`);
    expect(notices[0]?.text).toContain(
      `${segment.departure_at.slice(0, 10)} ${segment.departure_at.slice(11, 16)} UTC`,
    );
    expect(notices[0]?.text).toContain('local time');
    expect(notices[0]?.text).toContain(admin.agent.agency_id);

    // The endpoint that asked for cancellations only got the cancellation.
    await until(
      'the cancellation',
      () => events(cancellationsOnly.deliveries, booking.booking_id).length >= 1,
    );
    expect(
      events(cancellationsOnly.deliveries, booking.booking_id).map((d) => [d.body.type, d.verified]),
    ).toEqual([['booking.cancelled', true]]);
    const { Item: noDelivery } = await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: deliveryKey(byVersion[0]?.id ?? '', cancellationEndpoint.id),
      }),
    );
    expect(noDelivery).toBeUndefined();

    await until('the endpoint shows the delivery', async () => {
      const list = await invoke(listWebhooks, { headers: admin.headers, body: {} });
      return list.body.data.every((endpoint: Json) => endpoint.last_delivery?.outcome === 'delivered');
    });
  });

  it('a hold and its expiry by the sweep: booking.held with its deadline, then booking.expired', async () => {
    const hook = await receiver();
    await registerReceiver(admin, hook);
    // Far enough ahead to hold for 24 hours.
    const offers = await searchOffers(admin, { departure_date: addDays(date, 10) });
    const answer = await book(admin, { ...bookingBody(offers[0]), hold: true });
    expect(answer.status).toBe(201);
    const held = answer.body.data;
    expect(held.status).toBe('HELD');
    await until('the hold is delivered', () => events(hook.deliveries, held.booking_id).length >= 1);

    // The deadline passes; the sweep (every minute, deployed) expires the hold in the table.
    advance(24 * 3600_000);
    expect((await sweep()).expired).toBe(1);
    await until('the expiry is delivered', () => events(hook.deliveries, held.booking_id).length >= 2);
    await until('two notices', async () => (await noticesOf(held.booking_id)).length >= 2);

    const received = events(hook.deliveries, held.booking_id);
    expect(
      received.map((d) => [d.body.type, d.id, d.body.data.status, d.body.data.version, d.verified]),
    ).toEqual([
      ['booking.held', eventId(held.booking_id, { version: 1, status: 'HELD' }), 'HELD', 1, true],
      ['booking.expired', eventId(held.booking_id, { version: 2, status: 'EXPIRED' }), 'EXPIRED', 2, true],
    ]);
    expect(received[0]?.body.data).toEqual(held);
    // The expiry happened at the deadline, whenever the sweep got to it.
    expect(received[1]?.body.timestamp).toBe(held.payment_required_by);
    const notices = await noticesOf(held.booking_id);
    expect(notices.map((n) => [n.type, n.event_id])).toEqual(received.map((d) => [d.body.type, d.id]));
    const deadline = held.payment_required_by.slice(0, 16).replace('T', ' ');
    expect(notices[0]?.text).toContain(`Pay by: ${deadline} UTC`);
    expect(received).toHaveLength(2);
  });

  it('a change of flights: booking.changed with the new flight, and the traveller gets the new itinerary', async () => {
    const hook = await receiver();
    await registerReceiver(admin, hook);
    // Sold in a changeable bucket (the cheapest economy bucket allows no change).
    const first = (await searchOffers(admin, { departure_date: date }))[0];
    await sellSeats(first.outbound.segments[0].flight_number, date, 84);
    const booking = await bookFirstOffer();
    const quoted = await invoke(changeSearch, {
      headers: admin.headers,
      body: { booking_id: booking.booking_id, journeys: [{ index: 0, departure_date: addDays(date, 40) }] },
    });
    const offer = quoted.body.data[0];
    const changed = await invoke(change, {
      headers: admin.headers,
      body: { booking_id: booking.booking_id, change_offer_id: offer.id, change_total: offer.change_total },
    });
    expect(changed.status).toBe(200);

    await until('two deliveries', () => events(hook.deliveries, booking.booking_id).length >= 2);
    await until('two notices', async () => (await noticesOf(booking.booking_id)).length >= 2);

    const byVersion = events(hook.deliveries, booking.booking_id).sort(
      (a, b) => a.body.data.version - b.body.data.version,
    );
    for (const delivery of byVersion) assertMatchesWebhook(delivery.body.type, delivery.body);
    expect(byVersion.map((d) => [d.body.type, d.id])).toEqual([
      ['booking.confirmed', eventId(booking.booking_id, { version: 1, status: 'CONFIRMED' })],
      ['booking.changed', eventId(booking.booking_id, { version: 2, status: 'CONFIRMED' })],
    ]);
    expect(byVersion[1]?.body.data).toEqual(changed.body.data);
    const notices = await noticesOf(booking.booking_id);
    expect(notices.map((n) => n.type)).toEqual(['booking.confirmed', 'booking.changed']);
    const segment = offer.flight.outbound.segments[0];
    expect(notices[1]?.text).toContain(
      `${segment.flight_number} (${segment.carrier_name}) ${segment.origin} to ${segment.destination}`,
    );
    expect(notices[1]?.text).toContain(
      `${segment.departure_at.slice(0, 10)} ${segment.departure_at.slice(11, 16)} UTC`,
    );
  });

  it('names the agency as the operator named it (npm run agents -- agency-name)', async () => {
    await testTable.db.send(
      new UpdateCommand(agencyNameUpdate(testTable.tableName, admin.agent.agency_id, 'Acme Travel')),
    );
    const booking = await bookFirstOffer();
    await until('the notice', async () => (await noticesOf(booking.booking_id)).length === 1);
    const [notice] = await noticesOf(booking.booking_id);
    expect(notice?.subject).toBe(`Your booking is confirmed: ${booking.pnr} (Acme Travel)`);
    expect(notice?.text).toContain('Booked through: Acme Travel');
  });

  it('a receiver failing twice gets the same webhook-id three times, then it is delivered', async () => {
    const hook = await receiver((n) => (n <= 2 ? 500 : 204));
    await registerReceiver(admin, hook);
    const booking = await bookFirstOffer();

    await until('three attempts', () => events(hook.deliveries, booking.booking_id).length >= 3);
    const attempts = events(hook.deliveries, booking.booking_id);
    expect(attempts.map((d) => d.status)).toEqual([500, 500, 204]);
    expect(new Set(attempts.map((d) => d.id)).size).toBe(1);
    expect(attempts.every((d) => d.verified)).toBe(true);
    // The same body every time: the event's, not the attempt's.
    expect(new Set(attempts.map((d) => JSON.stringify(d.body))).size).toBe(1);
    await until('the delivery is recorded', async () => {
      const { Item } = await testTable.db.send(
        new GetCommand({
          TableName: testTable.tableName,
          Key: deliveryKey(attempts[0]?.id ?? '', (await listed())[0].id),
        }),
      );
      return Item?.state === 'delivered';
    });
    // The endpoint's last_delivery is written just after the delivery item: wait for it as well.
    await until(
      'the endpoint shows it',
      async () => (await listed())[0].last_delivery?.outcome === 'delivered',
    );
    expect((await listed())[0].last_delivery).toMatchObject({ outcome: 'delivered', http_status: 204 });
  });

  it('stream redelivery of one record: one notice and one delivery per endpoint', async () => {
    const [first, second] = [await receiver(), await receiver()];
    await registerReceiver(admin, first);
    await registerReceiver(admin, second);
    const booking = await bookFirstOffer();
    await until('both deliveries', () =>
      [first, second].every((r) => events(r.deliveries, booking.booking_id).length === 1),
    );
    await until('the notice', async () => (await noticesOf(booking.booking_id)).length === 1);

    const records = await streamRecordsOf(booking.booking_id);
    expect(records).toHaveLength(1);
    const enqueued: DeliveryMessage[] = [];
    const publish = streamHandler({
      ...testTable,
      clock: systemClock(),
      log: createLogger('info'),
      notices: fileNoticeSender(dataDir),
      queue: { enqueue: async (message) => void enqueued.push(message) },
    });
    // Lambda hands the same record over again (a retried batch), twice in one batch for good measure.
    const answer = await publish({ Records: [records[0], records[0]] as never });
    expect(answer.batchItemFailures).toEqual([]);
    expect(enqueued).toEqual([]);
    expect(await noticesOf(booking.booking_id)).toHaveLength(1);
  });

  it('two copies of one queue message make one attempt', async () => {
    const hook = await receiver();
    const endpoint = await registerReceiver(admin, hook);
    const message = await pendingDelivery(
      admin.agent.agency_id,
      endpoint.id,
      'evt_duplicated-message-test-000001',
    );
    const deps = deliveryDeps(0.001);
    // Side by side: one claims the attempt; the other finds it claimed (or already made).
    await Promise.all([handleDeliveryMessage(message, deps), handleDeliveryMessage(message, deps)]);
    // And once more after it was made.
    expect(await handleDeliveryMessage(message, deps)).toBe('done');
    expect(hook.deliveries).toHaveLength(1);
    expect(hook.deliveries[0]?.verified).toBe(true);
  });

  it('a receiver that always fails gets every attempt, then the delivery is recorded as failed', async () => {
    const hook = await receiver(() => 503);
    const endpoint = await registerReceiver(admin, hook);
    const message = await pendingDelivery(
      admin.agent.agency_id,
      endpoint.id,
      'evt_always-failing-receiver-test-01',
      'booking.cancelled',
    );
    // The whole 27.6-hour schedule in about a second.
    const deps = deliveryDeps(0.00001);
    const queue = localDeliveryQueue(
      async (next) => void (await handleDeliveryMessage(next, { ...deps, queue })),
    );
    await handleDeliveryMessage(message, { ...deps, queue });
    await until(
      'the last attempt is recorded',
      async () => (await listed())[0]?.last_delivery?.outcome === 'failed',
    );
    // docs/API.md §4.6: eight attempts in all (delivery-timing.test.ts checks the gaps between them).
    expect(hook.deliveries).toHaveLength(8);
    expect(new Set(hook.deliveries.map((d) => d.id))).toEqual(new Set([message.event_id]));
    expect((await listed())[0].last_delivery).toMatchObject({ outcome: 'failed', http_status: 503 });
    queue.close();
  });

  it('a poison record does not block the shard', async () => {
    // A booking item the booking module cannot read: the events code fails on it every time.
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: {
          ...bookingKey('bkg_POISON'),
          booking_id: 'bkg_POISON',
          status: 'CONFIRMED',
          agency_id: admin.agent.agency_id,
        },
      }),
    );
    const booking = await bookFirstOffer();
    await until(
      'the notice of the booking after it',
      async () => (await noticesOf(booking.booking_id)).length === 1,
    );
    const deadLetters = await readFile(join(dataDir, 'events-dead-letters.jsonl'), 'utf8');
    expect(deadLetters.trim().split('\n')).toHaveLength(1);
  });

  it('100 bookings in a burst: 100 notices, 100 deliveries per endpoint, none lost, none doubled', {
    timeout: 60_000,
  }, async () => {
    const [first, second] = [await receiver(), await receiver()];
    await registerReceiver(admin, first);
    await registerReceiver(admin, second);
    // A hundred different direct flights (no two bookings compete for one flight's seats), on dates
    // no other test of this file uses, then all booked at once through booking/create.
    const offers: Json[] = [];
    for (let day = 40; offers.length < 100; day++)
      offers.push(...(await searchOffers(admin, { departure_date: addDays(date, day), limit: 100 })));
    const hundred = offers.slice(0, 100);
    const flightOf = (offer: Json) =>
      offer.outbound.segments.map((x: Json) => `${x.flight_number}@${x.departure_at}`).join();
    expect(new Set(hundred.map(flightOf)).size).toBe(100);
    const answers = await Promise.all(hundred.map((offer) => book(admin, bookingBody(offer))));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
    const ids = answers.map((a) => String(a.body.data.booking_id));
    const burst = new Set(ids);
    const count = (r: Receiver) =>
      r.deliveries.filter((d) => burst.has(String(d.body.data.booking_id))).length;
    await until('every delivery', () => count(first) >= 100 && count(second) >= 100, 25_000);
    await until(
      'every notice',
      async () => (await readNotices()).filter((n) => burst.has(n.booking_id)).length >= 100,
      10_000,
    );

    for (const r of [first, second]) {
      const got = r.deliveries.filter((d) => burst.has(String(d.body.data.booking_id)));
      expect(new Set(got.map((d) => d.body.data.booking_id)).size).toBe(100);
      expect(got).toHaveLength(100);
      expect(got.every((d) => d.verified)).toBe(true);
    }
    const notices = (await readNotices()).filter((n) => burst.has(n.booking_id));
    expect(notices).toHaveLength(100);
    expect(new Set(notices.map((n) => n.booking_id)).size).toBe(100);
  });

  it('a hanging receiver does not slow bookings: median booking/create time with one registered vs none', async () => {
    const hook = await receiver(() => 'hang');
    await registerReceiver(admin, hook);
    const other = await signIn({ agencyId: `quiet-${Math.random().toString(36).slice(2, 8)}` });
    // One flight per booking (offers are the searching agency's): even ones for the agency with the
    // receiver, odd ones for the other.
    const search = { departure_date: date, max_connections: 1, limit: 21 };
    const [offers, otherOffers] = [await searchOffers(admin, search), await searchOffers(other, search)];
    expect(otherOffers).toHaveLength(21);
    expect((await book(admin, bookingBody(offers[20]))).status).toBe(201);
    await until('the receiver holds a delivery open', () => hook.hanging() >= 1);

    // Alternating, so load on the machine weighs on both sides alike.
    const timed = async (who: TestSession, offer: Json) => {
      const started = performance.now();
      const answer = await book(who, bookingBody(offer));
      expect(answer.status).toBe(201);
      return performance.now() - started;
    };
    const withHook: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 10; i++) {
      withHook.push(await timed(admin, offers[2 * i]));
      without.push(await timed(other, otherOffers[2 * i + 1]));
    }
    // Every one of those bookings reached the hanging receiver while bookings went on.
    const reached = () => new Set(hook.deliveries.map((d) => d.body.data.booking_id)).size;
    await until('the eleven bookings at the receiver', () => reached() >= 11);
    expect(hook.deliveries.every((d) => d.status === 0)).toBe(true);
    const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
    expect(median(withHook)).toBeLessThanOrEqual(1.5 * median(without) + 20);
  });
});

async function listed(): Promise<Json[]> {
  return (await invoke(listWebhooks, { headers: admin.headers, body: {} })).body.data;
}

const deliveryDeps = (timeScale: number) => testDeliveryDeps({ timeScale, timeoutMs: 2000 });
