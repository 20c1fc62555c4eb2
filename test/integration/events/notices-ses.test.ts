import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { handleDeliveryMessage } from '#shared/events/deliver.ts';
import type { DeliveryMessage } from '#shared/events/delivery-item.ts';
import { streamHandler } from '#shared/events/handlers.ts';
import { sesNoticeSender } from '#shared/events/notice-sender.ts';
import { createLogger } from '#shared/log.ts';
import { testTable } from '#test/helpers/agents.ts';
import { book, bookingBody, searchOffers } from '#test/helpers/bookings.ts';
import { registerReceiver, testDeliveryDeps } from '#test/helpers/events.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { startReceiver } from '#test/helpers/webhook-receiver.ts';

/**
 * Notices as deployed: SES stubbed at the SDK client (asserting the exact command), faults injected at
 * SES and at the DynamoDB client; the events function's handler run on the booking's stream record.
 */
const ses = mockClient(SESClient);
// The stubs are on the SDK's client classes, which outlive this file in its worker.
afterAll(() => {
  ses.restore();
});
const FROM = 'no-reply@flights.example.com';
let admin: TestSession;
let record: { eventName: string; dynamodb: { NewImage: Record<string, unknown>; SequenceNumber: string } };

beforeEach(async () => {
  admin = await signIn({ agencyId: `ses-${Math.random().toString(36).slice(2, 8)}`, role: 'ADMIN' });
  const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const [offer] = await searchOffers(admin, { departure_date: inTenDays });
  const booked = await book(admin, bookingBody(offer));
  const { Item } = await testTable.db.send(
    new GetCommand({ TableName: testTable.tableName, Key: bookingKey(booked.body.data.booking_id) }),
  );
  record = { eventName: 'INSERT', dynamodb: { NewImage: marshall(Item ?? {}), SequenceNumber: '42' } };
});
afterEach(() => {
  ses.reset();
});

function handler(db = testTable.db, queued: DeliveryMessage[] = []) {
  return streamHandler({
    db,
    tableName: testTable.tableName,
    clock: systemClock(),
    log: createLogger('info'),
    notices: sesNoticeSender(new SESClient({ region: 'eu-west-1' }), {
      from: FROM,
      configurationSet: 'sign-in',
    }),
    queue: { enqueue: async (message) => void queued.push(message) },
  });
}
const batch = () => ({ Records: [record] as never });

describe('traveller notices through SES', () => {
  it('sends one SendEmail from the stage sender, text and HTML, to the contact address', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    expect(await handler()(batch())).toEqual({ batchItemFailures: [] });
    const [call] = ses.commandCalls(SendEmailCommand);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(call?.args[0].input).toEqual({
      Source: FROM,
      Destination: { ToAddresses: ['traveller@example.com'] },
      Message: {
        Subject: {
          Data: expect.stringMatching(/^Your booking is confirmed: [A-Z]{6} \(ses-/),
          Charset: 'UTF-8',
        },
        Body: {
          Text: { Data: expect.stringContaining('Booking reference (PNR)'), Charset: 'UTF-8' },
          Html: { Data: expect.stringContaining('<h1>Your booking is confirmed</h1>'), Charset: 'UTF-8' },
        },
      },
      ConfigurationSetName: 'sign-in',
    });
  });

  it('reports the record when SES refuses, and sends once when it is retried', async () => {
    ses
      .on(SendEmailCommand)
      .rejectsOnce(Object.assign(new Error('Throttling'), { name: 'Throttling', $fault: 'client' }))
      .resolves({ MessageId: 'm-2' });
    expect(await handler()(batch())).toEqual({ batchItemFailures: [{ itemIdentifier: '42' }] });
    expect(await handler()(batch())).toEqual({ batchItemFailures: [] });
    expect(await handler()(batch())).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
  });

  it('a DynamoDB fault after the notice: the retry sends no second e-mail and creates the delivery once', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-3' });
    const receiver = await startReceiver();
    await registerReceiver(admin, receiver);
    const db = createDocumentClient(process.env.DYNAMODB_ENDPOINT);
    let failed = false;
    db.middlewareStack.add(
      (next, ctx) => async (args) => {
        const sk = JSON.stringify((args.input as { Item?: { sk?: unknown } }).Item?.sk ?? '');
        if (!failed && ctx.commandName === 'PutItemCommand' && sk.includes('DELIVERY#')) {
          failed = true;
          throw Object.assign(new Error('throttled'), {
            name: 'ProvisionedThroughputExceededException',
            $fault: 'client',
            $metadata: {},
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failFirstDelivery' },
    );
    const queued: DeliveryMessage[] = [];
    expect(await handler(db, queued)(batch())).toEqual({ batchItemFailures: [{ itemIdentifier: '42' }] });
    expect(queued).toEqual([]);
    expect(await handler(db, queued)(batch())).toEqual({ batchItemFailures: [] });
    expect(await handler(db, queued)(batch())).toEqual({ batchItemFailures: [] });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    // A record handled again while its first attempt is still due enqueues that attempt again (in case
    // the first message was lost); the claim makes one attempt of both.
    expect(new Set(queued.map((m) => `${m.event_id} ${m.webhook_id} ${m.attempt}`)).size).toBe(1);
    for (const message of queued) await handleDeliveryMessage(message, testDeliveryDeps());
    expect(receiver.deliveries.map((d) => [d.body.type, d.verified])).toEqual([['booking.confirmed', true]]);
    db.destroy();
    await receiver.close();
  });

  /** An SES error as the SDK raises it: its name, fault and a message that may name the address. */
  const sesError = (
    name: string,
    fault: 'client' | 'server' = 'client',
    message = 'Email address is not verified. The following identities failed the check: traveller@example.com',
  ) =>
    Object.assign(new Error(message), {
      name,
      $fault: fault,
      $metadata: { httpStatusCode: fault === 'client' ? 400 : 500 },
    });

  it.each([
    ['InvalidParameterValue', "Missing final '@domain' in traveller@example"],
    ['MessageRejected', 'Illegal address: traveller@example.com'],
  ])(
    'an address SES refuses (%s) is logged and counted, never retried, and the webhooks still go out',
    async (name, message) => {
      ses.on(SendEmailCommand).rejects(sesError(name, 'client', message));
      const receiver = await startReceiver();
      await registerReceiver(admin, receiver);
      const queued: DeliveryMessage[] = [];
      const logStart = capturedLogLines.length;
      expect(await handler(testTable.db, queued)(batch())).toEqual({ batchItemFailures: [] });
      // Handed over again (a stream redelivery): SES is not asked again.
      expect(await handler(testTable.db, queued)(batch())).toEqual({ batchItemFailures: [] });
      expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
      for (const message of queued) await handleDeliveryMessage(message, testDeliveryDeps());
      expect(receiver.deliveries.map((d) => [d.body.type, d.verified])).toEqual([
        ['booking.confirmed', true],
      ]);
      const lines = capturedLogLines.slice(logStart).map((line) => JSON.parse(line));
      // The line the NoticesRefused metric filter counts (infra/monitoring.ts).
      const refused = lines.find((line) => line.message === 'notice refused');
      expect(refused).toMatchObject({ level: 'warn', error: name, type: 'booking.confirmed' });
      expect(lines.filter((line) => line.message === 'notice not sent')).toEqual([]);
      // Neither the address nor SES's own words reach the log.
      expect(capturedLogLines.slice(logStart).join('\n')).not.toMatch(/traveller@example|Illegal|domain/);
      await receiver.close();
    },
  );

  it.each([
    ['MessageRejected', 'client'],
    ['AccessDenied', 'client'],
    ['AccessDeniedException', 'client'],
    ['ConfigurationSetDoesNotExistException', 'client'],
    ['ConfigurationSetSendingPausedException', 'client'],
    ['AccountSendingPausedException', 'client'],
    ['MailFromDomainNotVerifiedException', 'client'],
    ['Throttling', 'client'],
    ['InternalFailure', 'server'],
  ] as const)(
    'the stage’s or SES’s refusal (%s) is logged and counted, and the notice tried again until it goes',
    async (name, fault) => {
      // The sandbox's MessageRejected: the recipient is not verified, which the operator fixes.
      ses.on(SendEmailCommand).rejectsOnce(sesError(name, fault)).resolves({ MessageId: 'm-5' });
      const receiver = await startReceiver();
      await registerReceiver(admin, receiver);
      const queued: DeliveryMessage[] = [];
      const logStart = capturedLogLines.length;
      expect(await handler(testTable.db, queued)(batch())).toEqual({
        batchItemFailures: [{ itemIdentifier: '42' }],
      });
      const lines = capturedLogLines.slice(logStart).map((line) => JSON.parse(line));
      // The line the NoticesNotSent metric filter counts and alarms on (infra/monitoring.ts).
      expect(lines.find((line) => line.message === 'notice not sent')).toMatchObject({
        level: 'error',
        error: name,
        type: 'booking.confirmed',
      });
      expect(lines.filter((line) => line.message === 'notice refused')).toEqual([]);
      expect(capturedLogLines.slice(logStart).join('\n')).not.toMatch(/traveller@example|not verified/);
      // The webhook did not wait; the retry sends the notice, once.
      expect(await handler(testTable.db, queued)(batch())).toEqual({ batchItemFailures: [] });
      expect(await handler(testTable.db, queued)(batch())).toEqual({ batchItemFailures: [] });
      expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2);
      for (const message of queued.splice(0)) await handleDeliveryMessage(message, testDeliveryDeps());
      expect(receiver.deliveries.map((d) => d.body.type)).toEqual(['booking.confirmed']);
      await receiver.close();
    },
  );

  it('a throttled notice is retried on its own: the webhook goes out at once and is sent once', async () => {
    ses
      .on(SendEmailCommand)
      .rejectsOnce(sesError('Throttling'))
      .rejectsOnce(sesError('ServiceUnavailable', 'server'))
      .resolves({ MessageId: 'm-4' });
    const receiver = await startReceiver();
    await registerReceiver(admin, receiver);
    const queued: DeliveryMessage[] = [];
    const deliver = async () => {
      for (const message of queued.splice(0)) await handleDeliveryMessage(message, testDeliveryDeps());
    };
    expect(await handler(testTable.db, queued)(batch())).toEqual({
      batchItemFailures: [{ itemIdentifier: '42' }],
    });
    // The webhook did not wait for the notice.
    await deliver();
    expect(receiver.deliveries).toHaveLength(1);
    expect(await handler(testTable.db, queued)(batch())).toEqual({
      batchItemFailures: [{ itemIdentifier: '42' }],
    });
    expect(await handler(testTable.db, queued)(batch())).toEqual({ batchItemFailures: [] });
    await deliver();
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
    expect(receiver.deliveries.map((d) => d.body.type)).toEqual(['booking.confirmed']);
    await receiver.close();
  });
});
