import { createHmac } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStateKey } from '#shared/auth/session-state-item.ts';
import { issueSessionToken } from '#shared/auth/session-token.ts';
import { testTable } from '#test/helpers/agents.ts';
import { apiEvent, invoke, lambdaContext } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { signIn as signInAgent } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const path = '/api/auth/logout';

const signIn = async () => (await signInAgent()).token;

const withBearer = (token: string) => ({
  path,
  rawBody: null,
  headers: { Authorization: `Bearer ${token}` },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fn: logout', () => {
  it('revokes the bearer token until it expires and clears the cookie', async () => {
    const token = await signIn();

    const first = await invoke(logout, withBearer(token));
    const again = await invoke(logout, withBearer(token));

    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: {} });
    expect(first.headers['Set-Cookie']).toBe(
      '__Host-session=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0',
    );
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('UNAUTHORIZED');
    const { jti, exp, sub } = decodeJwt(token);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: sessionStateKey(sub ?? '') }),
    );
    expect(Item?.revoked).toEqual({ [jti ?? '']: exp });
  });

  it('authenticates with the session cookie alone', async () => {
    const token = await signIn();

    const answer = await invoke(logout, {
      path,
      rawBody: null,
      headers: { 'Content-Type': 'application/json', Cookie: `theme=dark; __Host-session=${token}` },
    });
    const reuse = await invoke(logout, {
      path,
      rawBody: null,
      headers: { 'Content-Type': 'application/json', Cookie: `__Host-session=${token}` },
    });

    expect(answer.status).toBe(200);
    expect(reuse.status).toBe(401);
  });

  it('finds the session cookie in a second Cookie field, as HTTP/2 clients send it', async () => {
    const cookieFields = (fields: string[], joiner: string) => {
      const event = apiEvent({ path, rawBody: null, headers: { 'Content-Type': 'application/json' } });
      return { ...event, headers: { ...event.headers, cookie: fields.join(joiner) } };
    };
    const [separate, joined] = [await signIn(), await signIn()];
    // Each field in multiValueHeaders (as API Gateway's REST events carry them), or one header joined
    // with "; " as RFC 9113 §8.2.3 rejoins them. Joined with ", " they would read as one cookie whose
    // value holds a comma: no session (docs/decisions.md, "Cookies in several fields").
    const asFields = cookieFields(['theme=dark'], '');
    asFields.multiValueHeaders = {
      ...asFields.multiValueHeaders,
      cookie: ['theme=dark', `__Host-session=${separate}`],
    };
    const asJoined = {
      ...cookieFields(['theme=dark', `__Host-session=${joined}`], '; '),
      multiValueHeaders: {},
    };
    const withComma = {
      ...cookieFields(['theme=dark', `__Host-session=${joined}`], ', '),
      multiValueHeaders: {},
    };

    const refused = await logout(withComma, lambdaContext());
    const answers = [await logout(asFields, lambdaContext()), await logout(asJoined, lambdaContext())];

    expect(refused.statusCode).toBe(401);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const revoked = await Promise.all(
      [separate, joined].map(async (token) => {
        const { jti, sub } = decodeJwt(token);
        const { Item } = await testTable.db.send(
          new GetCommand({ TableName: testTable.tableName, Key: sessionStateKey(sub ?? '') }),
        );
        return Object.keys(Item?.revoked ?? {}).includes(jti ?? '');
      }),
    );
    expect(revoked).toEqual([true, true]);
  });

  it('refuses a cookie-authenticated request without a JSON content type, even with no body (415)', async () => {
    const token = await signIn();

    // What a cross-site <form enctype="text/plain"> can send along with the cookie.
    const answers = await Promise.all(
      [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'].map(
        (type) =>
          invoke(logout, {
            path,
            rawBody: null,
            headers: { ...(type && { 'Content-Type': type }), Cookie: `__Host-session=${token}` },
          }),
      ),
    );
    const stillSignedIn = await invoke(logout, {
      path,
      rawBody: null,
      headers: { Authorization: `Bearer ${token}` },
    });

    for (const answer of answers) {
      expect(answer.status).toBe(415);
      expect(answer.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(stillSignedIn.status).toBe(200);
  });

  it('accepts an empty JSON object body as well as no body', async () => {
    const token = await signIn();

    const answer = await invoke(logout, { path, body: {}, headers: { Authorization: `Bearer ${token}` } });

    expect(answer.status).toBe(200);
  });

  it('refuses a request without a token, naming the scheme', async () => {
    const answer = await invoke(logout, { path, rawBody: null });

    expect(answer.status).toBe(401);
    expect(answer.body.error).toEqual({
      code: 'UNAUTHORIZED',
      message: 'A valid session token is required.',
      request_id: expect.any(String),
    });
    expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="flight-booking"');
  });

  it.each(['null', '[]', '7'])(
    'answers a correctly signed token whose payload is %s 401, never 500',
    async (payload) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'session+jwt' })).toString('base64url');
      const input = `${header}.${Buffer.from(payload).toString('base64url')}`;
      const signature = createHmac('sha256', context.tokens.key).update(input).digest('base64url');

      const answer = await invoke(logout, withBearer(`${input}.${signature}`));

      expect([answer.status, answer.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
      expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="flight-booking", error="invalid_token"');
    },
  );

  it('refuses a malformed Authorization header even when a valid cookie is present', async () => {
    const token = await signIn();

    const answer = await invoke(logout, {
      path,
      rawBody: null,
      headers: { Authorization: `Basic ${token}`, Cookie: `__Host-session=${token}` },
    });

    expect(answer.status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = await signIn();
    const { exp } = decodeJwt(token);
    vi.spyOn(context.clock, 'now').mockReturnValue((exp ?? 0) * 1000 + 1000);

    const answer = await invoke(logout, withBearer(token));

    expect(answer.status).toBe(401);
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const token = await signIn();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, agency_id: 'other-agency' })).toString(
      'base64url',
    );

    const answer = await invoke(logout, withBearer(`${header}.${forged}.${signature}`));

    expect(answer.status).toBe(401);
  });

  it('refuses a token signed with the right key for another audience', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ agency_id: 'test-agency' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('flight-booking-api')
      .setAudience('someone-else')
      .setSubject('agt_x')
      .setJti('j1')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(context.keys.token);

    const answer = await invoke(logout, withBearer(token));

    expect(answer.status).toBe(401);
  });
});

describe('fn: logout everywhere', () => {
  const call = (token: string, body: unknown) =>
    invoke(logout, { path, body, headers: { Authorization: `Bearer ${token}` } });

  it('ends every session of the calling agent from the next request on, and no one else’s', async () => {
    const advance = freezeClock(Date.now());
    const { token, agent } = await signInAgent();
    const [laptop, phone] = await Promise.all([
      issueSessionToken(agent, context),
      issueSessionToken(agent, context),
    ]);
    const stranger = await signInAgent({ agencyId: agent.agency_id });

    const refused = await call(token, { everywhere: 'yes' });
    const stillGood = await call(laptop.token, { everywhere: false }); // ends the laptop's token only
    const everywhere = await call(token, { everywhere: true });
    const afterwards = await Promise.all([token, phone.token].map((t) => call(t, {})));
    const theirs = await call(stranger.token, {});
    advance(1000);
    const fresh = await issueSessionToken(agent, context);
    const signedInAgain = await call(fresh.token, {});

    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'everywhere', message: 'must be true or false' }]);
    expect(stillGood.status).toBe(200);
    expect(everywhere.status).toBe(200);
    expect(everywhere.headers['Set-Cookie']).toMatch(/^__Host-session=; .*Max-Age=0$/);
    for (const answer of afterwards) expect(answer.status).toBe(401);
    expect(theirs.status).toBe(200);
    expect(signedInAgain.status).toBe(200);
  });

  it('stays one UpdateItem after the one session read', async () => {
    const { token } = await signInAgent();
    const recorder = recordDynamoCalls(context.db);

    const answer = await call(token, { everywhere: true });
    recorder.stop();

    expect(answer.status).toBe(200);
    expect(recorder.calls).toEqual(['GetItemCommand', 'UpdateItemCommand']);
  });
});
