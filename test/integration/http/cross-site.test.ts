import { decodeJwt } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { readSessionState } from '#shared/auth/session-state-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../functions/auth/logout.ts';

/**
 * A cookie-authenticated request from another site is 403 FORBIDDEN (docs/decisions.md, "Cookie
 * sessions and CSRF"): logout, a change, on a stage that lists one CORS origin. The API's own origin
 * is the request's Host over https (over http too for a loopback host: npm start).
 */
const logout = createHandler({
  ...testContext,
  config: { ...testContext.config, CORS_ALLOWED_ORIGINS: ['https://agents.example.com'] },
});
const path = '/api/auth/logout';
let agent: TestSession;
beforeEach(async () => {
  agent = await signIn();
});

const byCookie = (headers: Record<string, string>) =>
  invoke(logout, {
    path,
    rawBody: null,
    headers: { 'Content-Type': 'application/json', Cookie: `__Host-session=${agent.token}`, ...headers },
  });
const loggedOut = async () => {
  const { jti, sub } = decodeJwt(agent.token);
  const state = await readSessionState(testTable, sub ?? '');
  return Object.keys(state?.revoked ?? {}).includes(jti ?? '');
};

describe('cookie sessions: requests from another site', () => {
  it.each([
    ['another origin', { Host: 'api.example.com', Origin: 'https://evil.example.net' }],
    ['a sibling origin of the same site', { Host: 'api.example.com', Origin: 'https://shop.example.com' }],
    ['the API’s host over plain http', { Host: 'api.example.com', Origin: 'http://api.example.com' }],
    ['an opaque origin', { Host: 'api.example.com', Origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { Host: 'api.example.com', 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site, from an unlisted origin', { 'Sec-Fetch-Site': 'same-site' }],
    [
      'cross-site even from a listed origin',
      { Origin: 'https://agents.example.com', 'Sec-Fetch-Site': 'cross-site' },
    ],
    ['another port of the dev server', { Host: '127.0.0.1:3000', Origin: 'http://127.0.0.1:4000' }],
    ['localhost for 127.0.0.1', { Host: '127.0.0.1:3000', Origin: 'http://localhost:3000' }],
  ])('refuses %s with 403 FORBIDDEN in the envelope, and changes nothing', async (_, headers) => {
    const answer = await byCookie(headers);

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      success: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(/own pages/),
        request_id: answer.headers['X-Request-Id'],
      },
    });
    expect(answer.headers['Set-Cookie']).toBeUndefined();
    expect(await loggedOut()).toBe(false);
  });

  it.each([
    [
      'its own origin (https and the Host)',
      { Host: 'api.example.com', Origin: 'https://api.example.com', 'Sec-Fetch-Site': 'same-origin' },
    ],
    [
      'its own origin, the host in another case',
      { Host: 'API.example.com', Origin: 'https://api.example.com' },
    ],
    ['npm start’s own origin over http', { Host: '127.0.0.1:3000', Origin: 'http://127.0.0.1:3000' }],
    [
      'a listed origin of the same site',
      { Origin: 'https://agents.example.com', 'Sec-Fetch-Site': 'same-site' },
    ],
    ['a client that sends neither header (curl, a server)', {}],
    ['a navigation the user made', { 'Sec-Fetch-Site': 'none' }],
  ])('accepts %s', async (_, headers) => {
    const answer = await byCookie(headers);

    expect(answer.status).toBe(200);
    expect(await loggedOut()).toBe(true);
  });

  it('leaves bearer requests alone: no browser sends a bearer token by itself', async () => {
    const answer = await invoke(logout, {
      path,
      rawBody: null,
      headers: { ...agent.headers, Origin: 'https://evil.example.net', 'Sec-Fetch-Site': 'cross-site' },
    });

    expect(answer.status).toBe(200);
  });
});
