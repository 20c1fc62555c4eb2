import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { registerTestAgent, setTestAgentActive, testTable, uniqueEmail } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { readOutbox } from '#test/helpers/outbox.ts';
import { handler } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as verify } from '#test/helpers/routes/auth/verify-otp.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const path = '/api/auth/send-otp';
const send = (body: unknown) => invoke(handler, { path, body });
const sentTo = async (identifier: string) => (await readOutbox()).filter((e) => e.to === identifier);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fn: send-otp', () => {
  it('answers 202 with the code lifetime and delivers a 6-digit code to a registered agent', async () => {
    const agent = await registerTestAgent();

    const answer = await send({ identifier: agent.identifier, type: 'EMAIL' });

    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ success: true, data: { expires_in: 300, resend_after: 30 } });
    const sent = await sentTo(agent.identifier);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ channel: 'EMAIL', to: agent.identifier });
    expect(sent[0]?.code).toMatch(/^\d{6}$/);
  });

  it('answers an unknown identifier exactly as a registered one and sends nothing', async () => {
    const registered = await registerTestAgent();
    const unknown = uniqueEmail('nobody');

    const a = await send({ identifier: registered.identifier, type: 'EMAIL' });
    const b = await send({ identifier: unknown, type: 'EMAIL' });

    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(Object.keys(b.headers).sort()).toEqual(Object.keys(a.headers).sort());
    expect(await sentTo(unknown)).toHaveLength(0);
  });

  it('sends nothing to a deactivated agent, and again to a reactivated one', async () => {
    const advance = freezeClock();
    const agent = await registerTestAgent();
    await setTestAgentActive(agent.identifier, false);

    const answer = await send({ identifier: agent.identifier, type: 'EMAIL' });
    await setTestAgentActive(agent.identifier, true);
    advance(30_000);
    await send({ identifier: agent.identifier, type: 'EMAIL' });

    expect(answer.status).toBe(202);
    expect(await sentTo(agent.identifier)).toHaveLength(1);
  });

  it('costs one DynamoDB call for an unknown identifier, two for an agent (its agency’s code budget)', async () => {
    const agent = await registerTestAgent();
    const recorder = recordDynamoCalls(context.db);
    try {
      await send({ identifier: agent.identifier, type: 'EMAIL' });
      await send({ identifier: uniqueEmail('nobody'), type: 'EMAIL' });
    } finally {
      recorder.stop();
    }

    expect(recorder.calls).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
  });

  it('normalises the e-mail address (trim, lower case) before looking the agent up', async () => {
    const agent = await registerTestAgent(uniqueEmail('mixed'));

    const answer = await send({ identifier: `  ${agent.identifier.toUpperCase()} `, type: 'EMAIL' });

    expect(answer.status).toBe(202);
    expect(await sentTo(agent.identifier)).toHaveLength(1);
  });

  it('sends by SMS to a phone number, accepting SMS as an alias of PHONE', async () => {
    const phone = `+4474001${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
    await registerTestAgent(phone);

    const answer = await send({ identifier: phone, type: 'SMS' });

    expect(answer.status).toBe(202);
    expect((await sentTo(phone))[0]).toMatchObject({ channel: 'SMS', to: phone });
  });

  it('stores the code only as an HMAC', async () => {
    const agent = await registerTestAgent();
    await send({ identifier: agent.identifier, type: 'EMAIL' });
    const [entry] = await sentTo(agent.identifier);

    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: otpChallengeKey(agent.identifier) }),
    );

    expect(Item?.codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(Item)).not.toContain(entry?.code);
  });

  describe('throttle', () => {
    it('allows one send per 30 seconds and says when to retry', async () => {
      const advance = freezeClock();
      const identifier = (await registerTestAgent()).identifier;

      expect((await send({ identifier, type: 'EMAIL' })).status).toBe(202);
      advance(12_000);
      const throttled = await send({ identifier, type: 'EMAIL' });
      advance(18_000);
      const after30s = await send({ identifier, type: 'EMAIL' });

      expect(throttled.status).toBe(429);
      expect(throttled.body.error.code).toBe('RATE_LIMITED');
      expect(throttled.headers['Retry-After']).toBe('18');
      expect(after30s.status).toBe(202);
      expect(await sentTo(identifier)).toHaveLength(2);
    });

    it('allows five sends in any rolling hour to an agent who has signed in', async () => {
      const advance = freezeClock();
      const identifier = (await registerTestAgent()).identifier;

      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await send({ identifier, type: 'EMAIL' })).status);
        if (i === 0) {
          const code = (await sentTo(identifier)).at(-1)?.code;
          expect((await invoke(verify, { body: { identifier, code } })).status).toBe(200);
        }
        advance(60_000);
      }
      const sixth = await send({ identifier, type: 'EMAIL' });
      advance(3_600_000 - 5 * 60_000 - 1000); // one second before the first send leaves the window
      const stillSixth = await send({ identifier, type: 'EMAIL' });
      advance(1000);
      const afterHour = await send({ identifier, type: 'EMAIL' });

      expect(statuses).toEqual([202, 202, 202, 202, 202]);
      expect(sixth.status).toBe(429);
      expect(sixth.headers['Retry-After']).toBe(String(3600 - 300));
      expect(stillSixth.status).toBe(429);
      expect(stillSixth.headers['Retry-After']).toBe('1');
      expect(afterHour.status).toBe(202);
    });

    it('allows two sends an hour to an agent who never signed in, and to an unknown identifier alike', async () => {
      const advance = freezeClock();
      const fresh = (await registerTestAgent()).identifier;
      const unknown = uniqueEmail('nobody');

      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push(
          await Promise.all([fresh, unknown].map((identifier) => send({ identifier, type: 'EMAIL' }))),
        );
        advance(60_000);
      }
      advance(3_600_000 - 3 * 60_000); // the first send leaves the window
      const afterHour = await send({ identifier: fresh, type: 'EMAIL' });

      expect(answers.map((pair) => pair.map((a) => a.status))).toEqual([
        [202, 202],
        [202, 202],
        [429, 429],
      ]);
      // One answer for both: nothing tells an unknown identifier from a new agent's.
      expect(answers[2]?.[0]?.headers['Retry-After']).toBe(String(3600 - 120));
      expect(answers[2]?.[1]?.headers['Retry-After']).toBe(String(3600 - 120));
      expect(answers[2]?.[0]?.body.error).toEqual({
        ...answers[2]?.[1]?.body.error,
        request_id: expect.any(String),
      });
      expect(await sentTo(fresh)).toHaveLength(3);
      expect(afterHour.status).toBe(202);
    });

    it('throttles unknown identifiers the same way', async () => {
      freezeClock();
      const identifier = uniqueEmail('nobody');

      const first = await send({ identifier, type: 'EMAIL' });
      const second = await send({ identifier, type: 'EMAIL' });

      expect(first.status).toBe(202);
      expect(second.status).toBe(429);
      expect(second.headers['Retry-After']).toBe('30');
    });

    it('lets exactly one of 10 parallel sends through', async () => {
      const identifier = (await registerTestAgent()).identifier;

      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send({ identifier, type: 'EMAIL' })),
      );

      expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
      expect(await sentTo(identifier)).toHaveLength(1);
    });
  });

  describe('validation', () => {
    it('reports every missing field', async () => {
      const answer = await send({});

      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details).toEqual([
        { path: 'identifier', message: 'is required' },
        { path: 'type', message: 'is required' },
      ]);
    });

    it.each([
      ['a phone number typed EMAIL', { identifier: '+447700900123', type: 'EMAIL' }, 'identifier'],
      ['an e-mail address typed PHONE', { identifier: 'agent@example.com', type: 'PHONE' }, 'identifier'],
      ['a national phone number', { identifier: '07700900123', type: 'PHONE' }, 'identifier'],
      [
        'an e-mail address over 254 characters',
        { identifier: `${'a'.repeat(250)}@example.com`, type: 'EMAIL' },
        'identifier',
      ],
      ['an unknown type', { identifier: 'agent@example.com', type: 'FAX' }, 'type'],
      ['a number as identifier', { identifier: 42, type: 'EMAIL' }, 'identifier'],
    ])('refuses %s with a detail on the field and sends nothing', async (_case, body, field) => {
      const before = (await readOutbox()).length;

      const answer = await send(body);

      expect(answer.status).toBe(400);
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual([field]);
      expect((await readOutbox()).length).toBe(before);
    });
  });
});
