import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { systemClock } from '#shared/clock.ts';
import { registerTestAgent, setTestAgentActive, testTable, uniqueEmail } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { assertMatchesContract } from '#test/helpers/contract.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as session } from '#test/helpers/routes/auth/session.ts';
import { handler as verifyOtp } from '#test/helpers/routes/auth/verify-otp.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const verify = (identifier: string, code: string) =>
  invoke(verifyOtp, { path: '/api/auth/verify-otp', body: { identifier, code } });

async function requestCode(identifier: string): Promise<string | undefined> {
  const answer = await invoke(sendOtp, { path: '/api/auth/send-otp', body: { identifier, type: 'EMAIL' } });
  expect(answer.status).toBe(202);
  return lastCodeFor(identifier).catch(() => undefined);
}

/**
 * Counts the attempts DynamoDB grants on `identifier`'s challenge (verify-otp's conditional increment
 * of its `attempts`, which at most five may pass), through the tests' client as the faults go in.
 */
function countReservedAttempts(identifier: string) {
  let granted = 0;
  const name = 'countReservedAttempts';
  context.db.middlewareStack.add(
    (next, ctx) => async (args) => {
      const result = await next(args);
      const input = args.input as { Key?: unknown; UpdateExpression?: string };
      const increments = input.UpdateExpression?.includes('attempts = attempts + ') === true;
      // The key as the command carries it (marshalled or not): each test's agent is its own.
      const onChallenge = JSON.stringify(input.Key ?? {}).includes(identifier);
      if (ctx.commandName === 'UpdateItemCommand' && increments && onChallenge) granted += 1;
      return result;
    },
    { step: 'initialize', name },
  );
  return { granted: () => granted, stop: () => context.db.middlewareStack.remove(name) };
}

/** A code that is certainly not `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fn: verify-otp', () => {
  it('exchanges the right code for a session token, the agent and the session cookie', async () => {
    const agent = await registerTestAgent(uniqueEmail(), { agencyId: 'acme-travel', name: 'Ada Agent' });
    const code = (await requestCode(agent.identifier)) ?? '';

    const answer = await verify(agent.identifier, code);

    expect(answer.status).toBe(200);
    const data = answer.body.data;
    expect(data).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      agent: {
        id: agent.id,
        name: 'Ada Agent',
        agency_id: 'acme-travel',
        identifier: agent.identifier,
        role: 'AGENT',
      },
    });
    expect(Object.keys(data.agent)).toEqual(['id', 'name', 'agency_id', 'identifier', 'role']);
    expect(data.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(answer.headers['Set-Cookie']).toBe(
      `__Host-session=${data.verification_token}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600`,
    );

    expect(decodeProtectedHeader(data.verification_token)).toEqual({ alg: 'HS256', typ: 'session+jwt' });
    const claims = decodeJwt(data.verification_token);
    expect(claims).toMatchObject({
      iss: 'flight-booking-api',
      aud: 'flight-booking-agents',
      sub: agent.id,
      agency_id: 'acme-travel',
    });
    expect(claims.exp).toBe((claims.iat ?? 0) + 3600);
    expect(new Date(data.expires_at).getTime()).toBe((claims.exp ?? 0) * 1000);
    expect(claims.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('with "cookie_only": true answers the same without the token: the session is only in the HttpOnly cookie', async () => {
    const agent = await registerTestAgent(uniqueEmail(), { agencyId: 'acme-travel' });
    const code = (await requestCode(agent.identifier)) ?? '';

    const answer = await invoke(verifyOtp, {
      path: '/api/auth/verify-otp',
      body: { identifier: agent.identifier, code, cookie_only: true },
    });

    expect(answer.status).toBe(200);
    assertMatchesContract('/api/auth/verify-otp', 200, answer.body);
    expect(Object.keys(answer.body.data)).toEqual(['expires_in', 'expires_at', 'agent']);
    expect(answer.body.data).toMatchObject({
      expires_in: 3600,
      agent: { id: agent.id, agency_id: 'acme-travel' },
    });
    const token = /^__Host-session=([^;]+); Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600$/.exec(
      answer.headers['Set-Cookie'] ?? '',
    )?.[1];
    expect(token).toBeDefined();
    expect(JSON.stringify(answer.body)).not.toContain(token);
    expect(new Date(answer.body.data.expires_at).getTime()).toBe((decodeJwt(token ?? '').exp ?? 0) * 1000);
    const who = await invoke(session, {
      path: '/api/auth/session',
      rawBody: null,
      headers: { 'Content-Type': 'application/json', Cookie: `__Host-session=${token}` },
    });
    expect([who.status, who.body.data?.agent.id]).toEqual([200, agent.id]);
  });

  it('answers the token as before with "cookie_only": false, and refuses a cookie_only that is not a boolean', async () => {
    const agent = await registerTestAgent(uniqueEmail());
    const code = (await requestCode(agent.identifier)) ?? '';
    const send = (cookie_only: unknown) =>
      invoke(verifyOtp, {
        path: '/api/auth/verify-otp',
        body: { identifier: agent.identifier, code, cookie_only },
      });

    const malformed = await send('true');
    const withToken = await send(false);

    expect([malformed.status, malformed.body.error.details]).toEqual([
      400,
      [{ path: 'cookie_only', message: expect.any(String) }],
    ]);
    expect(withToken.status).toBe(200);
    expect(withToken.body.data).toMatchObject({
      verification_token: expect.any(String),
      token_type: 'Bearer',
    });
  });

  it("answers the agent's role as it is now: ADMIN when registered so, and after a change", async () => {
    const admin = await registerTestAgent(uniqueEmail(), { role: 'ADMIN' });
    const agent = await registerTestAgent(uniqueEmail());
    await changeAgentByIdentifier(testTable, systemClock(), agent.identifier, { role: 'ADMIN' });

    const adminSession = await verify(admin.identifier, (await requestCode(admin.identifier)) ?? '');
    const promoted = await verify(agent.identifier, (await requestCode(agent.identifier)) ?? '');

    expect(adminSession.body.data.agent.role).toBe('ADMIN');
    expect(promoted.body.data.agent.role).toBe('ADMIN');
  });

  it('answers the role of an agent whose sign-in snapshot predates roles from its session state', async () => {
    const admin = await registerTestAgent(uniqueEmail(), { role: 'ADMIN' });
    await testTable.db.send(
      new UpdateCommand({
        TableName: testTable.tableName,
        Key: otpChallengeKey(admin.identifier),
        UpdateExpression: 'REMOVE #agent.#role',
        ExpressionAttributeNames: { '#agent': 'agent', '#role': 'role' },
      }),
    );

    const answer = await verify(admin.identifier, (await requestCode(admin.identifier)) ?? '');

    expect(answer.status).toBe(200);
    expect(answer.body.data.agent.role).toBe('ADMIN');
  });

  it('accepts the identifier in another case or with spaces', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const answer = await verify(` ${agent.identifier.toUpperCase()}`, code);

    expect(answer.status).toBe(200);
  });

  it('accepts a code once only', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const first = await verify(agent.identifier, code);
    const second = await verify(agent.identifier, code);

    expect(first.status).toBe(200);
    expect(second.status).toBe(401);
    expect(second.body.error.code).toBe('INVALID_CODE');
  });

  it('answers a wrong code with 401 INVALID_CODE and the WWW-Authenticate challenge every 401 carries', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const wrong = await verify(agent.identifier, code === '000000' ? '000001' : '000000');

    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CODE');
    expect(wrong.headers['WWW-Authenticate']).toBe('Bearer realm="flight-booking"');
  });

  it('accepts a code for 5 minutes and not a moment longer', async () => {
    const advance = freezeClock();
    const a = await registerTestAgent();
    const b = await registerTestAgent();
    const codeA = (await requestCode(a.identifier)) ?? '';
    const codeB = (await requestCode(b.identifier)) ?? '';

    advance(300_000 - 1);
    const justInTime = await verify(a.identifier, codeA);
    advance(1);
    const expired = await verify(b.identifier, codeB);

    expect(justInTime.status).toBe(200);
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('INVALID_CODE');
  });

  it('forgets the previous code when a new one is sent', async () => {
    const advance = freezeClock();
    const agent = await registerTestAgent();
    const oldCode = (await requestCode(agent.identifier)) ?? '';
    advance(30_000);
    const newCode = (await requestCode(agent.identifier)) ?? '';

    const withOld = oldCode === newCode ? undefined : await verify(agent.identifier, oldCode);
    const withNew = await verify(agent.identifier, newCode);

    if (withOld) expect(withOld.body.error.code).toBe('INVALID_CODE');
    expect(withNew.status).toBe(200);
  });

  it('voids the code at the fifth wrong attempt, even for the right code afterwards', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push(await verify(agent.identifier, wrong(code, i)));
    const rightAfterVoid = await verify(agent.identifier, code);

    expect(answers.map((a) => a.body.error.code)).toEqual([
      'INVALID_CODE',
      'INVALID_CODE',
      'INVALID_CODE',
      'INVALID_CODE',
      'TOO_MANY_ATTEMPTS',
    ]);
    expect(answers[4]?.status).toBe(429);
    expect(rightAfterVoid.status).toBe(429);
    expect(rightAfterVoid.body.error.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('lets a new code work after a voided one', async () => {
    const advance = freezeClock();
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';
    for (let i = 1; i <= 5; i++) await verify(agent.identifier, wrong(code, i));
    advance(30_000);
    const fresh = (await requestCode(agent.identifier)) ?? '';

    expect((await verify(agent.identifier, fresh)).status).toBe(200);
  });

  it('evaluates at most 5 of 30 parallel wrong guesses', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => verify(agent.identifier, wrong(code, i + 1))),
    );

    const codes = answers.map((a) => a.body.error.code);
    expect(codes.filter((c) => c === 'INVALID_CODE')).toHaveLength(4);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(26);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: otpChallengeKey(agent.identifier) }),
    );
    expect(Item?.attempts).toBe(5);
    expect((await verify(agent.identifier, code)).body.error.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('never evaluates more than 5 of 50 parallel guesses that include the right code', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';
    const guesses = Array.from({ length: 50 }, (_, i) => (i === 37 ? code : wrong(code, i + 1)));
    const reserved = countReservedAttempts(agent.identifier);

    const answers = await Promise.all(guesses.map((guess) => verify(agent.identifier, guess)));
    reserved.stop();

    // A guess is compared with the code only after DynamoDB granted it an attempt. Answers cannot tell:
    // once the right code has signed in, the guesses after it find no code and are answered INVALID_CODE
    // unevaluated (the loaded check once saw 45 such answers, the right code among the first five).
    expect(reserved.granted()).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    for (const answer of answers)
      if (answer.status !== 200)
        expect(['INVALID_CODE', 'TOO_MANY_ATTEMPTS']).toContain(answer.body.error.code);
  });

  it('issues at most one token when the right code is sent 10 times in parallel', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(agent.identifier, code)));

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const losers = answers.filter((a) => a.status !== 200).map((a) => a.body.error.code);
    expect(losers).toHaveLength(9);
    // Losers either reserved an attempt and lost the consume, or found all five attempts reserved.
    expect(new Set(losers)).toSatisfy((codes: Set<string>) =>
      [...codes].every((c) => c === 'INVALID_CODE' || c === 'TOO_MANY_ATTEMPTS'),
    );
  });

  it('answers an unknown identifier exactly as a registered one, down to the void', async () => {
    const registered = await registerTestAgent();
    const unknown = uniqueEmail('nobody');
    const code = (await requestCode(registered.identifier)) ?? '';
    await requestCode(unknown);

    const forRegistered = [];
    const forUnknown = [];
    for (let i = 1; i <= 6; i++) {
      forRegistered.push(await verify(registered.identifier, wrong(code, i)));
      forUnknown.push(await verify(unknown, wrong(code, i)));
    }

    expect(forUnknown.map((a) => [a.status, a.body.error.code, a.body.error.message])).toEqual(
      forRegistered.map((a) => [a.status, a.body.error.code, a.body.error.message]),
    );
  });

  it('refuses the right code once the agent has been deactivated', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';
    await setTestAgentActive(agent.identifier, false);

    const answer = await verify(agent.identifier, code);

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_CODE');
  });

  it('answers INVALID_CODE for an identifier that never asked for a code', async () => {
    const answer = await verify(uniqueEmail('never'), '123456');

    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 'INVALID_CODE', message: expect.any(String) });
  });

  it.each([
    ['a five-digit code', { identifier: 'agent@example.com', code: '12345' }, ['code']],
    ['a numeric code', { identifier: 'agent@example.com', code: 123456 }, ['code']],
    ['a malformed identifier', { identifier: 'not-an-identifier', code: '123456' }, ['identifier']],
    ['nothing', {}, ['identifier', 'code']],
  ])('refuses %s with 400 details', async (_case, body, fields) => {
    const answer = await invoke(verifyOtp, { path: '/api/auth/verify-otp', body });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual(fields);
  });
});

describe('fn: verify-otp and deactivation', () => {
  it('a code pending at deactivation never works again, not even after re-activation', async () => {
    freezeClock();
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';

    await setTestAgentActive(agent.identifier, false);
    await setTestAgentActive(agent.identifier, true);
    const answer = await verify(agent.identifier, code);

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_CODE');
  });

  it('signs no token for an agent deactivated between the code check and its consumption', async () => {
    const agent = await registerTestAgent();
    const code = (await requestCode(agent.identifier)) ?? '';
    // The deactivation's mark in the sign-in snapshot lands just before verify-otp's consuming write.
    context.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        const input = args.input as { UpdateExpression?: string };
        if (ctx.commandName === 'UpdateItemCommand' && input.UpdateExpression?.startsWith('SET signedIn'))
          await testTable.db.send(
            new UpdateCommand({
              TableName: testTable.tableName,
              Key: otpChallengeKey(agent.identifier),
              UpdateExpression: 'SET #agent.active = :no',
              ExpressionAttributeNames: { '#agent': 'agent' },
              ExpressionAttributeValues: { ':no': false },
            }),
          );
        return next(args);
      },
      { step: 'initialize', name: 'deactivateMidway' },
    );
    try {
      const answer = await verify(agent.identifier, code);

      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('INVALID_CODE');
      expect(answer.body.data).toBeUndefined();
    } finally {
      context.db.middlewareStack.remove('deactivateMidway');
    }
  });
});
