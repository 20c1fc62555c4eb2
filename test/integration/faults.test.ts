import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import { registerTestAgent, testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, freshTravelDate, type Json, searchOffers } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as verifyOtp } from '#test/helpers/routes/auth/verify-otp.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/**
 * DynamoDB faults injected (SDK middleware, after the SDK's own retries would have given up) at each
 * step of send-otp, verify-otp, create and cancel: the answer is the contract's 503, nothing is half
 * written, and a retry does the work exactly once.
 */
type Kind = 'throttled' | 'timed out' | 'transaction cancelled' | 'lost after commit';
const faultFor = (kind: Kind, command: string) => {
  if (kind === 'throttled')
    return Object.assign(new Error('Rate exceeded'), {
      name: 'ThrottlingException',
      $fault: 'client',
      $metadata: {},
    });
  if (kind === 'timed out') return Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });
  if (command === 'TransactWriteItemsCommand') {
    return Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      $fault: 'client',
      $metadata: {},
      CancellationReasons: [{ Code: 'ThrottlingError' }, { Code: 'None' }],
    });
  }
  return Object.assign(new Error('Internal server error'), {
    name: 'InternalServerError',
    $fault: 'server',
    $metadata: {},
  });
};

/**
 * Fails the `step`-th DynamoDB call of the next request ("lost after commit": the call succeeds, its
 * answer is lost); with `persistent`, every call from that step on fails the same way.
 */
function injectAt(step: number, kind: Kind, persistent = false) {
  let seen = 0;
  context.db.middlewareStack.add(
    (next, ctx) => async (args) => {
      seen += 1;
      if (seen < step || (seen > step && !persistent) || ctx.commandName === 'DeleteItemCommand')
        return next(args);
      if (kind === 'lost after commit') {
        await next(args);
        throw faultFor('timed out', ctx.commandName ?? '');
      }
      throw faultFor(kind, ctx.commandName ?? '');
    },
    { step: 'initialize', name: 'fault' },
  );
}

afterEach(() => {
  context.db.middlewareStack.remove('fault');
  vi.restoreAllMocks();
});

async function snapshot(): Promise<string> {
  const { Items } = await testTable.db.send(
    new ScanCommand({ TableName: testTable.tableName, ConsistentRead: true }),
  );
  return (Items ?? [])
    .map((item) => JSON.stringify(item, Object.keys(item).sort()))
    .sort()
    .join('\n');
}

const KINDS: Kind[] = ['throttled', 'timed out', 'transaction cancelled'];

describe('faults: send-otp', () => {
  it.each(KINDS)('%s at its one DynamoDB call: 503, nothing written, the retry sends', async (kind) => {
    const agent = await registerTestAgent();
    const before = await snapshot();
    injectAt(1, kind);

    const failed = await invoke(sendOtp, { body: { identifier: agent.identifier, type: 'EMAIL' } });
    context.db.middlewareStack.remove('fault');

    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await snapshot()).toBe(before);
    expect((await invoke(sendOtp, { body: { identifier: agent.identifier, type: 'EMAIL' } })).status).toBe(
      202,
    );
  });
});

describe('faults: verify-otp', () => {
  it.each([1, 2])(
    'a fault at step %i answers 503, issues no token, and the same code works on retry',
    async (step) => {
      const agent = await registerTestAgent();
      await invoke(sendOtp, { body: { identifier: agent.identifier, type: 'EMAIL' } });
      const code = await lastCodeFor(agent.identifier);
      injectAt(step, 'throttled');

      const failed = await invoke(verifyOtp, { body: { identifier: agent.identifier, code } });
      context.db.middlewareStack.remove('fault');
      const { Item } = await testTable.db.send(
        new GetCommand({ TableName: testTable.tableName, Key: otpChallengeKey(agent.identifier) }),
      );
      const retried = await invoke(verifyOtp, { body: { identifier: agent.identifier, code } });

      expect(failed.status).toBe(503);
      expect(failed.headers['Set-Cookie']).toBeUndefined();
      // Step 2 fails after the attempt was reserved: the attempt stays counted, the code stays valid.
      expect(Item?.attempts).toBe(step === 1 ? 0 : 1);
      expect(retried.status).toBe(200);
    },
  );
});

describe('faults: booking create with an Idempotency-Key', () => {
  let session: TestSession;
  let offer: Json;
  beforeEach(async () => {
    freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    session = await signIn({ agencyId: `faults-${Math.random().toString(36).slice(2, 8)}` });
    [offer] = await searchOffers(session, { departure_date: freshTravelDate() });
  });

  const bookings = async () => {
    const { Items } = await testTable.db.send(
      new ScanCommand({ TableName: testTable.tableName, ConsistentRead: true }),
    );
    return (Items ?? []).filter(
      (item) => item.sk === 'BOOKING' && item.agency_id === session.agent.agency_id,
    );
  };
  const sold = async () => {
    const segment = offer.outbound.segments[0];
    const { Item } = await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: inventoryKey(segment.flight_number, segment.departure_at.slice(0, 10)),
        ConsistentRead: true,
      }),
    );
    return Item?.sold_Y ?? 0;
  };

  const cases: [string, number, Kind, boolean][] = [
    ['the session check', 1, 'throttled', false],
    ['claiming the key', 2, 'timed out', false],
    ['the booking transaction', 3, 'throttled', false],
    ['the booking transaction, every attempt', 3, 'transaction cancelled', true],
    ['the booking transaction', 3, 'timed out', false],
  ];
  it.each(cases)(
    'a fault at %s (%s, %s) answers 503, books nothing, and the retry books once',
    async (_where, step, kind, persistent) => {
      const headers = { 'Idempotency-Key': `fault-${step}-${kind}` };
      injectAt(step, kind, persistent);

      const failed = await book(session, bookingBody(offer), headers);
      context.db.middlewareStack.remove('fault');

      expect(failed.status).toBe(503);
      expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(await bookings()).toEqual([]);
      expect(await sold()).toBe(0);

      const retried = await book(session, bookingBody(offer), headers);
      const replayed = await book(session, bookingBody(offer), headers);
      expect(retried.status).toBe(201);
      expect(replayed.headers['Idempotent-Replayed']).toBe('true');
      expect(await bookings()).toHaveLength(1);
      expect(await sold()).toBe(1);
    },
  );

  it('a transaction cancelled once for throttling is retried in the function and books', async () => {
    injectAt(2, 'transaction cancelled');

    const answer = await book(session, bookingBody(offer));

    expect(answer.status).toBe(201);
    expect(await bookings()).toHaveLength(1);
    expect(await sold()).toBe(1);
  });

  it('a booking committed but whose answer was lost is replayed, not booked twice', async () => {
    const headers = { 'Idempotency-Key': 'lost-answer' };
    injectAt(3, 'lost after commit');

    const failed = await book(session, bookingBody(offer), headers);
    context.db.middlewareStack.remove('fault');
    const retried = await book(session, bookingBody(offer), headers);

    expect(failed.status).toBe(503);
    expect(retried.status).toBe(201);
    expect(retried.headers['Idempotent-Replayed']).toBe('true');
    expect(await bookings()).toHaveLength(1);
    expect(await sold()).toBe(1);
  });

  it('a key left claimed by a failure answers 409 until its lock expires, then books once', async () => {
    const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const headers = { 'Idempotency-Key': 'stuck' };
    injectAt(3, 'throttled');
    // The release after the failed transaction fails too (step 4): the claim stays behind.
    context.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === 'DeleteItemCommand') throw faultFor('throttled', 'DeleteItemCommand');
        return next(args);
      },
      { step: 'initialize', name: 'failRelease' },
    );

    const failed = await book(session, bookingBody(offer), headers);
    context.db.middlewareStack.remove('fault');
    context.db.middlewareStack.remove('failRelease');
    const meanwhile = await book(session, bookingBody(offer), headers);
    advance(31_000);
    const later = await book(session, bookingBody(offer), headers);

    expect(failed.status).toBe(503);
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(later.status).toBe(201);
    expect(await bookings()).toHaveLength(1);
  });
});

describe('faults: booking cancel', () => {
  it.each([
    [1, 'throttled'],
    [2, 'timed out'],
    [3, 'transaction cancelled'],
    [3, 'lost after commit'],
  ] as [number, Kind][])(
    'a fault at step %i (%s) answers 503; the retry cancels and returns the seats once',
    async (step, kind) => {
      freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
      const session = await signIn({ agencyId: 'faults-cancel' });
      const [offer] = await searchOffers(session, { departure_date: freshTravelDate() });
      const booked = (await book(session, bookingBody(offer))).body.data;
      const segment = offer.outbound.segments[0];
      const soldNow = async () =>
        (
          await testTable.db.send(
            new GetCommand({
              TableName: testTable.tableName,
              Key: inventoryKey(segment.flight_number, segment.departure_at.slice(0, 10)),
              ConsistentRead: true,
            }),
          )
        ).Item?.sold_Y;
      const cancelIt = () =>
        invoke(cancel, { headers: session.headers, body: { booking_id: booked.booking_id } });
      injectAt(step, kind);

      const failed = await cancelIt();
      context.db.middlewareStack.remove('fault');
      const soldAfterFailure = await soldNow();
      const retried = await cancelIt();

      expect(failed.status).toBe(503);
      expect(soldAfterFailure).toBe(kind === 'lost after commit' ? 0 : 1);
      expect(retried.status).toBe(200);
      expect(retried.body.data.status).toBe('CANCELLED');
      expect(await soldNow()).toBe(0);
    },
  );
});
