import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { agencyCountersKey } from '#shared/agency/agency-counters-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { agencyPartition } from '#shared/db/table.ts';
import { handleDeliveryMessage } from '#shared/events/deliver.ts';
import type { DeliveryMessage } from '#shared/events/delivery-item.ts';
import { claimAttempt, deliveryKey } from '#shared/events/delivery-item.ts';
import { deliveryHandler, streamHandler } from '#shared/events/handlers.ts';
import type { Resolver } from '#shared/events/webhook-url.ts';
import { createLogger } from '#shared/log.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, searchOffers } from '#test/helpers/bookings.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { pendingDelivery, testDeliveryDeps } from '#test/helpers/events.ts';
import { handler as create } from '#test/helpers/routes/agency/webhooks-create.ts';
import { handler as remove } from '#test/helpers/routes/agency/webhooks-delete.ts';
import { handler as list } from '#test/helpers/routes/agency/webhooks-list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { startReceiver } from '#test/helpers/webhook-receiver.ts';
import { createHandler as createWebhookHandler } from '../../../functions/agency/webhooks-create.ts';

type Handler = typeof list;
let admin: TestSession;
const newAgency = () => `hooks-${Math.random().toString(36).slice(2, 8)}`;
const call = (handler: Handler, body: unknown, who: TestSession = admin) =>
  invoke(handler, { path: '/api/agency/webhooks/x', body, headers: who.headers });
const URL_A = 'http://127.0.0.1:4999/hooks';

beforeEach(async () => {
  admin = await signIn({ agencyId: newAgency(), role: 'ADMIN' });
});

async function storedEndpoints(agencyId: string) {
  const { Items } = await testTable.db.send(
    new QueryCommand({
      TableName: testTable.tableName,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :w)',
      ExpressionAttributeValues: { ':p': agencyPartition(agencyId), ':w': 'WEBHOOK#' },
    }),
  );
  return Items ?? [];
}

describe('webhook endpoints', () => {
  it('create answers the endpoint and its secret once; list never shows the secret; delete removes it', async () => {
    const created = await call(create, { url: URL_A });
    expect(created.status).toBe(201);
    const { data } = created.body;
    expect(data).toMatchObject({
      url: URL_A,
      events: [
        'booking.confirmed',
        'booking.held',
        'booking.cancelled',
        'booking.expired',
        'booking.failed',
        'booking.changed',
      ],
      active: true,
    });
    expect(data.id).toMatch(/^whk_[0-9a-f]{24}$/);
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const bytes = Buffer.from(data.secret.slice('whsec_'.length), 'base64');
    expect(bytes.length).toBeGreaterThanOrEqual(24);
    expect(bytes.length).toBeLessThanOrEqual(32);

    // Stored sealed: neither the secret's text nor its bytes in any encoding.
    const [item] = await storedEndpoints(admin.agent.agency_id);
    const stored = JSON.stringify(item);
    for (const spelling of [
      data.secret,
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex'),
    ])
      expect(stored).not.toContain(spelling);

    const listed = await call(list, {});
    expect(listed.status).toBe(200);
    const { secret: _secret, ...shown } = data;
    expect(listed.body.data).toEqual([{ ...shown, last_delivery: null }]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    expect(await call(remove, { webhook_id: data.id })).toMatchObject({ status: 200, body: { data: {} } });
    expect((await call(list, {})).body.data).toEqual([]);
    const again = await call(remove, { webhook_id: data.id });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it('keeps the event types asked for, once each', async () => {
    const created = await call(create, {
      url: URL_A,
      events: ['booking.cancelled', 'booking.confirmed', 'booking.cancelled'],
    });
    expect(created.body.data.events).toEqual(['booking.cancelled', 'booking.confirmed']);
  });

  it('answers 403 FORBIDDEN to an AGENT on all three routes, and changes nothing', async () => {
    const agent = await signIn({ agencyId: admin.agent.agency_id });
    const { id } = (await call(create, { url: URL_A })).body.data;
    for (const [handler, body] of [
      [create, { url: URL_A }],
      [list, {}],
      [remove, { webhook_id: id }],
    ] as const) {
      const answer = await call(handler, body, agent);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('FORBIDDEN');
    }
    expect(await storedEndpoints(admin.agent.agency_id)).toHaveLength(1);
  });

  it("another agency's endpoint is 404 and never listed", async () => {
    const other = await signIn({ agencyId: newAgency(), role: 'ADMIN' });
    const { id } = (await call(create, { url: URL_A }, other)).body.data;
    expect((await call(remove, { webhook_id: id })).status).toBe(404);
    expect((await call(list, {})).body.data).toEqual([]);
    expect((await call(list, {}, other)).body.data).toHaveLength(1);
  });

  it('at most 5 per agency: 409 LIMIT_REACHED, also when 8 are created at once; a deletion frees a place', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(create, { url: URL_A })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(3);
    for (const answer of refused) expect(answer.body.error.code).toBe('LIMIT_REACHED');
    expect(await storedEndpoints(admin.agent.agency_id)).toHaveLength(5);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: agencyCountersKey(admin.agent.agency_id) }),
    );
    expect(Item?.webhooks).toBe(5);

    const first = answers.find((a) => a.status === 201)?.body.data.id;
    await call(remove, { webhook_id: first });
    expect((await call(create, { url: URL_A })).status).toBe(201);
    expect((await call(create, { url: URL_A })).body.error.code).toBe('LIMIT_REACHED');
  });

  it.each([
    [{}, 'url'],
    [{ url: '' }, 'url'],
    [{ url: 42 }, 'url'],
    [{ url: URL_A, events: [] }, 'events'],
    [{ url: URL_A, events: ['booking.created'] }, 'events.0'],
    [{ url: `http://127.0.0.1:4999/${'a'.repeat(2048)}` }, 'url'],
  ])('refuses %j with 400 on %s, storing nothing', async (body, path) => {
    const answer = await call(create, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await storedEndpoints(admin.agent.agency_id)).toEqual([]);
  });

  it.each([{ webhook_id: 'whk_123' }, { webhook_id: ' whk_0123456789abcdef01234567' }, {}])(
    'delete refuses %j with 400',
    async (body) => {
      const answer = await call(remove, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details[0].path).toBe('webhook_id');
    },
  );
});

describe('webhook URLs with the deployed checks on', () => {
  const privateDns: Resolver = async () => [{ address: '10.20.30.40', family: 4 }];
  const deployed = createWebhookHandler(testContext, { policy: 'deployed', resolve: privateDns });

  it.each([
    'https://127.0.0.1/hooks',
    'http://127.0.0.1:4999/hooks',
    'https://10.0.0.1/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hooks',
    'https://2130706433/hooks',
    'https://0177.0.0.1/hooks',
    'https://hooks.internal.example/',
    'https://user:secret@hooks.example.com/',
  ])('refuses %s with 400 on url, storing nothing', async (url) => {
    const answer = await invoke(deployed, { body: { url }, headers: admin.headers });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: 'url', message: expect.any(String) }]);
    expect(await storedEndpoints(admin.agent.agency_id)).toEqual([]);
  });

  it('refuses a name the system resolves to loopback (localhost)', async () => {
    const { systemResolver } = await import('#shared/events/webhook-url.ts');
    const withDns = createWebhookHandler(testContext, { policy: 'deployed', resolve: systemResolver });
    const answer = await invoke(withDns, {
      body: { url: 'https://localhost/hooks' },
      headers: admin.headers,
    });
    expect(answer.status).toBe(400);
  });

  it('checks the address again at delivery: a name that now resolves privately gets no request', async () => {
    const receiver = await startReceiver();
    // Created while the name resolved to a public address.
    const publicDns: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];
    const created = await invoke(
      createWebhookHandler(testContext, { policy: 'deployed', resolve: publicDns }),
      {
        body: { url: `https://hooks.rebound.example:${receiver.port}/` },
        headers: admin.headers,
      },
    );
    expect(created.status).toBe(201);
    const message = await pendingDelivery(
      admin.agent.agency_id,
      created.body.data.id,
      'evt_rebinding-test-0000000000000001',
    );
    const enqueued: unknown[] = [];
    // ... and now resolves to loopback (DNS rebinding), where the receiver listens.
    await handleDeliveryMessage(
      message,
      testDeliveryDeps({
        queue: { enqueue: async (next) => void enqueued.push(next) },
        urlPolicy: 'deployed',
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    );
    expect(receiver.deliveries).toEqual([]);
    expect(enqueued).toEqual([{ ...message, attempt: 2, due_at: expect.any(Number) }]);
    const [shown] = (await call(list, {})).body.data;
    expect(shown.last_delivery).toEqual({
      at: expect.any(String),
      event_id: message.event_id,
      outcome: 'retrying',
    });
    await receiver.close();
  });
});

describe('a receiver that answers 2xx, then trickles its body', () => {
  it('is delivered once, when its status comes: no retry, last_delivery delivered', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { id } = (await call(create, { url: `http://127.0.0.1:${port}/hooks` })).body.data;
    const message = await pendingDelivery(admin.agent.agency_id, id, 'evt_trickling-receiver-test-000001');
    const enqueued: unknown[] = [];
    await handleDeliveryMessage(
      message,
      testDeliveryDeps({ queue: { enqueue: async (next) => void enqueued.push(next) }, timeoutMs: 400 }),
    );
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(enqueued).toEqual([]);
    const [shown] = (await call(list, {})).body.data;
    expect(shown.last_delivery).toMatchObject({
      event_id: message.event_id,
      outcome: 'delivered',
      http_status: 200,
    });
  });
});

describe('deleting an endpoint', () => {
  it('stops its deliveries, pending retries included', async () => {
    const receiver = await startReceiver();
    const { id } = (await call(create, { url: receiver.url })).body.data;
    const message = await pendingDelivery(admin.agent.agency_id, id, 'evt_deleted-endpoint-test-00000001');
    expect((await call(remove, { webhook_id: id })).status).toBe(200);
    const enqueued: unknown[] = [];
    await handleDeliveryMessage(
      message,
      testDeliveryDeps({ queue: { enqueue: async (next) => void enqueued.push(next) } }),
    );
    expect(receiver.deliveries).toEqual([]);
    expect(enqueued).toEqual([]);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: deliveryKey(message.event_id, id) }),
    );
    expect(Item?.state).toBe('failed');
    await receiver.close();
  });
});

describe('the delivery function on an SQS batch', () => {
  it('reports only the messages to hand over again: a held claim, not a malformed body or a done attempt', async () => {
    const receiver = await startReceiver();
    const endpoint = (await call(create, { url: receiver.url })).body.data;
    receiver.useSecret(endpoint.secret);
    const [first, held] = ['evt_sqs-batch-test-0000000000000001', 'evt_sqs-batch-test-0000000000000002'];
    const message = (event: string) => ({
      event_id: event,
      webhook_id: endpoint.id,
      attempt: 1,
      due_at: Date.now(),
    });
    for (const event of [first, held]) await pendingDelivery(admin.agent.agency_id, endpoint.id, event);
    const deps = testDeliveryDeps();
    // The second event's attempt is held by a live claim (another invocation is making it).
    await claimAttempt(testTable, message(held), Date.now());
    const record = (id: string, body: string) => ({ messageId: id, body }) as never;
    const answer = await deliveryHandler(deps)({
      Records: [
        record('m-1', JSON.stringify(message(first))),
        record('m-2', JSON.stringify(message(held))),
        record('m-3', '{"not": "a delivery"}'),
        record('m-4', 'not json'),
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(receiver.deliveries.map((d) => [d.id, d.verified])).toEqual([[first, true]]);
    await receiver.close();
  });
});

describe('what one event costs in AWS calls', () => {
  it('events: 4 DynamoDB calls and 1 e-mail, then per endpoint 1 PutItem and 1 message; each attempt 4 DynamoDB calls', async () => {
    const receiver = await startReceiver();
    const endpoint = (await call(create, { url: receiver.url })).body.data;
    receiver.useSecret(endpoint.secret);
    const booking = await bookedRecord(admin);

    const db = createDocumentClient(process.env.DYNAMODB_ENDPOINT);
    const calls = recordDynamoCalls(db);
    const emails: unknown[] = [];
    const messages: DeliveryMessage[] = [];
    const deps = {
      db,
      tableName: testTable.tableName,
      clock: systemClock(),
      log: createLogger('info'),
      notices: { send: async (notice: unknown) => void emails.push(notice) },
      queue: { enqueue: async (message: DeliveryMessage) => void messages.push(message) },
    };
    const record = { eventName: 'INSERT', dynamodb: { NewImage: marshall(booking), SequenceNumber: '7' } };
    expect(await streamHandler(deps)({ Records: [record] as never })).toEqual({ batchItemFailures: [] });
    expect(calls.calls).toEqual([
      'QueryCommand', // the agency's endpoints
      'PutItemCommand', // the delivery item (webhooks first: they never wait on the notice)
      'GetItemCommand', // the agency's name
      'PutItemCommand', // the notice's claim
      'UpdateItemCommand', // ... recorded as sent
    ]);
    expect([emails.length, messages.length]).toEqual([1, 1]);

    calls.calls.length = 0;
    const [message] = messages;
    if (!message) throw new Error('no message');
    await handleDeliveryMessage(
      message,
      testDeliveryDeps({ db, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
    );
    expect(calls.calls).toEqual([
      'UpdateItemCommand', // claim the attempt
      'GetItemCommand', // the endpoint (URL, sealed secret)
      'UpdateItemCommand', // the attempt's outcome
      'UpdateItemCommand', // the endpoint's last delivery
    ]);
    expect(receiver.deliveries.map((d) => d.verified)).toEqual([true]);
    calls.stop();
    db.destroy();
    await receiver.close();
  });
});

/** A booking item as the booking flow stores it, for the agency of `who`. */
async function bookedRecord(who: TestSession) {
  const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const [offer] = await searchOffers(who, { departure_date: inTenDays });
  const answer = await book(who, bookingBody(offer));
  const { Item } = await testTable.db.send(
    new GetCommand({ TableName: testTable.tableName, Key: bookingKey(answer.body.data.booking_id) }),
  );
  return Item ?? {};
}

describe('webhook endpoints: the caller’s right, checked at the write', () => {
  /** Runs `change` just before the next TransactWriteItems the handlers send: inside the race window. */
  function justBeforeTheWrite(change: () => Promise<unknown>) {
    let done = false;
    testContext.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (!done && ctx.commandName === 'TransactWriteItemsCommand') {
          done = true;
          await change();
        }
        return next(args);
      },
      { step: 'initialize', name: 'justBeforeTheWebhookWrite' },
    );
    return () => testContext.db.middlewareStack.remove('justBeforeTheWebhookWrite');
  }
  const cut = (who: TestSession, change: { active?: boolean; role?: 'AGENT' }) =>
    changeAgentByIdentifier(testTable, testContext.clock, who.agent.identifier, change, { force: true });

  it('an ADMIN deactivated between its session check and the write registers nothing (401)', async () => {
    const undo = justBeforeTheWrite(() => cut(admin, { active: false }));
    const created = await call(create, { url: URL_A }).finally(undo);
    expect(created.status).toBe(401);
    expect(await storedEndpoints(admin.agent.agency_id)).toEqual([]);
  });

  it('an ADMIN demoted between its session check and the write registers nothing (403) and deletes nothing', async () => {
    const second = await signIn({ agencyId: admin.agent.agency_id, role: 'ADMIN' });
    let undo = justBeforeTheWrite(() => cut(admin, { role: 'AGENT' }));
    const created = await call(create, { url: URL_A }).finally(undo);
    expect(created.status).toBe(403);
    expect(await storedEndpoints(admin.agent.agency_id)).toEqual([]);

    const kept = await call(create, { url: URL_A }, second);
    expect(kept.status).toBe(201);
    undo = justBeforeTheWrite(() => cut(second, { active: false }));
    const removed = await call(remove, { webhook_id: kept.body.data.id }, second).finally(undo);
    expect(removed.status).toBe(401);
    expect(await storedEndpoints(admin.agent.agency_id)).toHaveLength(1);
  });
});
