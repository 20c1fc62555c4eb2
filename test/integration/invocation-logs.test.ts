import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { systemClock } from '#shared/clock.ts';
import { deliveryHandler, streamHandler } from '#shared/events/handlers.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { createLogger } from '#shared/log.ts';
import { testTable } from '#test/helpers/agents.ts';
import { lambdaContext } from '#test/helpers/api.ts';
import { book, bookingBody, freshTravelDate, searchOffers } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { testDeliveryDeps } from '#test/helpers/events.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import { signIn } from '#test/helpers/session.ts';

/**
 * The functions without the HTTP stack log what an operator searches by, as the HTTP ones do
 * (test/integration/http/http-stack.test.ts): Lambda's request id as `request_id` and whether the
 * invocation paid the cold start, on every line an invocation writes.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

/** The log lines `run` writes, parsed. */
async function linesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const before = capturedLogLines.length;
  await run();
  return capturedLogLines.slice(before).map((line) => JSON.parse(line));
}

const malformed = { Records: [{ messageId: 'm-1', body: 'not json' }] as never };

describe('the delivery function’s log lines', () => {
  // First in this file, before any handler ran: this process's first invocation.
  it('carry the invocation’s request id, and cold_start on the process’s first invocation only', async () => {
    const handle = deliveryHandler(testDeliveryDeps({ log: createLogger('info') }));
    const first = lambdaContext();
    const second = lambdaContext();

    const lines = [
      ...(await linesOf(() => handle(malformed, first))),
      ...(await linesOf(() => handle(malformed, second))),
    ];

    expect(lines).toEqual([
      expect.objectContaining({
        message: 'delivery message malformed',
        request_id: first.awsRequestId,
        cold_start: true,
      }),
      expect.objectContaining({ request_id: second.awsRequestId, cold_start: false }),
    ]);
  });
});

describe('the events function’s log lines', () => {
  it('carry the invocation’s request id and cold_start', async () => {
    const session = await signIn();
    const [offer] = await searchOffers(session, { departure_date: addDays(freshTravelDate(), 10) });
    const booked = await book(session, bookingBody(offer));
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: bookingKey(booked.body.data.booking_id) }),
    );
    const handle = streamHandler({
      ...testTable,
      clock: systemClock(),
      log: createLogger('info'),
      notices: { send: async () => undefined },
      queue: { enqueue: async () => undefined },
    });
    const record = { eventName: 'INSERT', dynamodb: { NewImage: marshall(Item ?? {}), SequenceNumber: '1' } };
    const lambda = lambdaContext();

    const lines = await linesOf(() => handle({ Records: [record] as never }, lambda));

    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatchObject({ request_id: lambda.awsRequestId, cold_start: false });
  });
});

describe('the sweep’s log lines', () => {
  it('carry the invocation’s request id and cold_start on every line', async () => {
    const advance = freezeClock();
    const session = await signIn();
    const [offer] = await searchOffers(session, { departure_date: addDays(freshTravelDate(), 10) });
    expect((await book(session, { ...bookingBody(offer), hold: true })).status).toBe(201);
    advance(24 * 3600_000);
    const lambda = lambdaContext();

    const lines = await linesOf(() => sweep(undefined, lambda));

    expect(lines).toContainEqual(expect.objectContaining({ message: 'sweep', expired_holds: 1 }));
    for (const line of lines)
      expect(line).toMatchObject({ request_id: lambda.awsRequestId, cold_start: false });
  });
});
