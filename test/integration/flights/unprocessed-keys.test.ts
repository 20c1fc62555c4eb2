import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/**
 * DynamoDB may answer a BatchGetItem with some keys left in `UnprocessedKeys` (throttling, or over
 * its 16 MB answer limit). Search asks again for those keys only, with back-off, a bounded number of
 * times, then answers 503.
 */
let session: TestSession;

beforeEach(async () => {
  freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  session = await signIn({ agencyId: 'batch-testers' });
});

afterEach(() => {
  context.db.middlewareStack.remove('unprocessed');
  vi.restoreAllMocks();
});

/** Every BatchGetItem answer moves all its requested keys to UnprocessedKeys, `times` times. */
function holdBackKeys(times: number) {
  const asked: number[] = [];
  context.db.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (ctx.commandName !== 'BatchGetItemCommand') return next(args);
      const input = args.input as { RequestItems: Record<string, { Keys: unknown[] }> };
      asked.push(Object.values(input.RequestItems).reduce((n, r) => n + r.Keys.length, 0));
      if (asked.length > times) return next(args);
      return { output: { $metadata: {}, Responses: {}, UnprocessedKeys: input.RequestItems }, response: {} };
    },
    { step: 'initialize', name: 'unprocessed' },
  );
  return asked;
}

const searchLhrJfk = () =>
  invoke(search, {
    path: '/api/flights/search',
    body: { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-03', max_connections: 0 },
    headers: session.headers,
  });

describe('search: unprocessed keys of BatchGetItem', () => {
  it('asks again for the keys held back and answers as if nothing happened', async () => {
    const baseline = await searchLhrJfk();
    const asked = holdBackKeys(2);

    const answer = await searchLhrJfk();

    expect(answer.status).toBe(200);
    expect(answer.body.data.map((f: { total_price: number }) => f.total_price)).toEqual(
      baseline.body.data.map((f: { total_price: number }) => f.total_price),
    );
    expect(asked).toHaveLength(3);
    expect(new Set(asked).size).toBe(1);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when keys stay held back', async () => {
    const asked = holdBackKeys(Number.POSITIVE_INFINITY);

    const answer = await searchLhrJfk();

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.headers['Retry-After']).toBe('1');
    expect(asked).toHaveLength(4);
  });
});
