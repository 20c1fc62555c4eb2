import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { idempotencyRecordKey, requestFingerprint } from '#shared/bookings/entity/idempotency-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { minimalBookingBody } from '#test/helpers/fixtures.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as create } from '#test/helpers/routes/bookings/create.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

let session: TestSession;
beforeAll(async () => {
  session = await signIn();
});

const routes = [
  ['create', create],
  ['get', get],
  ['list', list],
  ['cancel', cancel],
] as const;

describe.each(routes)('booking %s: transport errors in the envelope', (name, handler) => {
  const path = `/api/flights/booking/${name}`;

  it('answers 401 UNAUTHORIZED without a session', async () => {
    const answer = await invoke(handler, { path, body: {} });
    expect([answer.status, answer.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('answers 400 INVALID_JSON to a body that is not JSON', async () => {
    const answer = await invoke(handler, {
      path,
      rawBody: '{"a":',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
    });
    expect([answer.status, answer.body.error.code]).toEqual([400, 'INVALID_JSON']);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a form', async () => {
    const answer = await invoke(handler, {
      path,
      rawBody: 'a=1',
      headers: { ...session.headers, 'Content-Type': 'text/plain' },
    });
    expect([answer.status, answer.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('answers 413 PAYLOAD_TOO_LARGE over 64 KiB', async () => {
    const answer = await invoke(handler, {
      path,
      headers: session.headers,
      body: { pad: 'x'.repeat(70 * 1024) },
    });
    expect([answer.status, answer.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});

describe('booking create: Idempotency-Key still running', () => {
  it('answers 409 IDEMPOTENCY_IN_PROGRESS while the first request holds the key', async () => {
    const body = minimalBookingBody();
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: {
          ...idempotencyRecordKey(session.agent.id, 'busy-key'),
          state: 'IN_PROGRESS',
          fingerprint: requestFingerprint(body),
          lockId: 'someone-else',
          lockExpiresAt: Date.now() + 30_000,
          ttl: Math.floor(Date.now() / 1000) + 86_400,
        },
      }),
    );

    const answer = await invoke(create, {
      path: '/api/flights/booking/create',
      headers: { ...session.headers, 'Idempotency-Key': 'busy-key' },
      body,
    });

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(answer.headers['Retry-After']).toBe('1');
  });
});
