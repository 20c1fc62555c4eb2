import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { handler as refresh } from '#test/helpers/routes/auth/refresh.ts';
import { handler as session } from '#test/helpers/routes/auth/session.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const path = '/api/auth/refresh';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const byBearer = (token: string, body: unknown = {}) =>
  invoke(refresh, { path, body, headers: { Authorization: `Bearer ${token}` } });
const byCookie = (cookie: string, body: unknown = {}) =>
  invoke(refresh, { path, body, headers: { Cookie: cookie } });
const whoIs = (token: string) =>
  invoke(session, { path: '/api/auth/session', body: {}, headers: { Authorization: `Bearer ${token}` } });
/** The token a refresh answered in its Set-Cookie. */
const cookieToken = (answer: { headers: Record<string, string | undefined> }) =>
  /^__Host-session=([^;]+);/.exec(answer.headers['Set-Cookie'] ?? '')?.[1] ?? '';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fn: refresh', () => {
  it('answers a fresh token like verify-otp, in the body and the cookie, and revokes the old one', async () => {
    const advance = freezeClock();
    const { token, agent } = await signIn({ name: 'Ada Agent' });
    advance(50 * MINUTE);

    const answer = await byBearer(token);

    expect(answer.status).toBe(200);
    const fresh: string = answer.body.data.verification_token;
    expect(answer.body.data).toEqual({
      verification_token: fresh,
      token_type: 'Bearer',
      expires_in: 3600,
      expires_at: '2026-12-01T10:50:00Z',
      agent: {
        id: agent.id,
        name: 'Ada Agent',
        agency_id: agent.agency_id,
        identifier: agent.identifier,
        role: 'AGENT',
      },
    });
    expect(answer.headers['Set-Cookie']).toBe(
      `__Host-session=${fresh}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600`,
    );
    expect(decodeJwt(fresh).jti).not.toBe(decodeJwt(token).jti);
    expect((await whoIs(token)).status).toBe(401);
    expect((await byBearer(token)).status).toBe(401);
    expect((await whoIs(fresh)).status).toBe(200);
  });

  it('honours cookie_only with the session cookie: no token in the body, only in the cookie', async () => {
    const { token } = await signIn();

    const answer = await byCookie(`__Host-session=${token}`, { cookie_only: true });

    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.data).sort()).toEqual(['agent', 'expires_at', 'expires_in']);
    const fresh = cookieToken(answer);
    expect((await whoIs(fresh)).status).toBe(200);
    expect((await byCookie(`__Host-session=${token}`)).status).toBe(401);
  });

  it('carries the sign-in time over: no session outlives 12 hours from its sign-in', async () => {
    const advance = freezeClock();
    let { token } = await signIn();
    const signedInAt = decodeJwt(token).iat;
    for (let hour = 1; hour <= 12; hour += 1) {
      advance(55 * MINUTE);
      const answer = await byBearer(token);
      expect(answer.status).toBe(200);
      token = answer.body.data.verification_token;
      expect(decodeJwt(token).auth_time).toBe(signedInAt);
    }
    // 11 h 05 min after the sign-in: the next token lives 55 minutes, not an hour.
    advance(5 * MINUTE);
    const last = await byBearer(token);
    expect(last.status).toBe(200);
    expect(last.body.data.expires_in).toBe(55 * 60);
    expect(last.body.data.expires_at).toBe('2026-12-01T21:00:00Z');
    expect(last.headers['Set-Cookie']).toMatch(/Max-Age=3300$/);
    token = last.body.data.verification_token;

    advance(55 * MINUTE);
    const atTwelveHours = await byBearer(token);
    expect(atTwelveHours.status).toBe(401);
    expect(atTwelveHours.body.error.code).toBe('UNAUTHORIZED');
    expect((await whoIs(token)).status).toBe(401);
  });

  it('returns 401 for a revoked, expired or deactivated session, and after logout everywhere', async () => {
    const advance = freezeClock();
    const loggedOut = await signIn();
    await invoke(logout, { path: '/api/auth/logout', headers: loggedOut.headers });
    const everywhere = await signIn();
    const refreshed = (await byBearer(everywhere.token)).body.data.verification_token;
    await invoke(logout, {
      path: '/api/auth/logout',
      body: { everywhere: true },
      headers: everywhere.headers,
    });
    const deactivated = await signIn();
    await changeAgentByIdentifier(testTable, context.clock, deactivated.agent.identifier, { active: false });
    const expired = await signIn();
    advance(HOUR);

    const answers = [
      await byBearer(loggedOut.token),
      await byBearer(refreshed),
      await byCookie(`__Host-session=${deactivated.token}`),
      await byBearer(expired.token),
      await invoke(refresh, { path, body: {} }),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
      expect(answer.headers['WWW-Authenticate']).toMatch(/^Bearer/);
      expect(answer.headers['Set-Cookie']).toBeUndefined();
    }
  });

  it('returns 401 for two session cookies, never refreshing the first one', async () => {
    const [first, second] = [await signIn(), await signIn()];

    const answer = await byCookie(`__Host-session=${first.token}; __Host-session=${second.token}`);

    expect(answer.status).toBe(401);
    expect((await whoIs(first.token)).status).toBe(200);
  });

  it('costs one UpdateItem after the one session read', async () => {
    const { token } = await signIn();
    const recorder = recordDynamoCalls(context.db);

    const answer = await byBearer(token);
    recorder.stop();

    expect(answer.status).toBe(200);
    expect(recorder.calls).toEqual(['GetItemCommand', 'UpdateItemCommand']);
  });
});
