import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route } from '#shared/routes.ts';
import { apiEvent, lambdaContext } from '#test/helpers/api.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { handler as session } from '#test/helpers/routes/auth/session.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { createDevServer } from '../../../infra/local/dev-server.ts';

/**
 * The session cookie read as RFC 6265 writes the Cookie header (docs/API.md §3.3b): pairs split on `;`
 * only, every Cookie field read, and the cookie twice refused. The attack: a sibling site sets
 * `x=1,__Host-session=<its token>; Domain=<parent>`, which a parser splitting on `,` took for the
 * session cookie, so the victim's console spoke for the attacker's agency.
 */
let victim: TestSession;
let attacker: TestSession;
beforeAll(async () => {
  [victim, attacker] = [
    await signIn({ agencyId: 'victim-agency' }),
    await signIn({ agencyId: 'attacker-agency' }),
  ];
});

/** The session route with `fields` as the request's Cookie fields, as API Gateway delivers them. */
async function whoAmI(fields: string[]) {
  const event: APIGatewayProxyEvent = {
    ...apiEvent({
      path: '/api/auth/session',
      rawBody: null,
      headers: { 'Content-Type': 'application/json' },
    }),
  };
  // REST API events: every field in multiValueHeaders, the last one alone in headers.
  event.multiValueHeaders = { ...event.multiValueHeaders, Cookie: fields };
  event.headers = { ...event.headers, Cookie: fields.at(-1) };
  const result = await session(event, lambdaContext());
  const body = JSON.parse(result.body);
  return { status: result.statusCode, agency: body.data?.agent?.agency_id, code: body.error?.code };
}

describe('session cookie: a cookie planted by a sibling site', () => {
  it('is never the session: a "," inside a value separates nothing, so the victim stays itself', async () => {
    const planted = `x=1,__Host-session=${attacker.token}`;
    const own = `__Host-session=${victim.token}`;

    const answers = [
      await whoAmI([`${planted}; ${own}`]),
      await whoAmI([`${own}; ${planted}`]),
      await whoAmI([planted, own]),
      await whoAmI([own, planted]),
    ];

    for (const answer of answers)
      expect(answer).toEqual({ status: 200, agency: 'victim-agency', code: undefined });
  });

  it('alone is no session at all: 401', async () => {
    const answer = await whoAmI([`theme=dark; x=1,__Host-session=${attacker.token}`]);

    expect(answer).toEqual({ status: 401, agency: undefined, code: 'UNAUTHORIZED' });
  });

  it('as a second __Host-session, in one field or another, makes the request 401, never "the first one"', async () => {
    const answers = [
      await whoAmI([`__Host-session=${attacker.token}; __Host-session=${victim.token}`]),
      await whoAmI([`__Host-session=${victim.token}; __Host-session=${attacker.token}`]),
      await whoAmI([`__Host-session=${attacker.token}`, `__Host-session=${victim.token}`]),
      await whoAmI([`theme=dark; __Host-session=${victim.token}`, `__Host-session=${victim.token}`]),
    ];

    for (const answer of answers)
      expect(answer).toEqual({ status: 401, agency: undefined, code: 'UNAUTHORIZED' });
  });

  it('is tolerated without the space after ";" and with white space around the pair', async () => {
    expect(await whoAmI([`theme=dark;__Host-session=${victim.token}`])).toMatchObject({ status: 200 });
    expect(await whoAmI([`  __Host-session = ${victim.token} ;theme=dark`])).toMatchObject({ status: 200 });
  });
});

describe('session cookie: through the dev server (several Cookie headers, its own origin)', () => {
  const server = createDevServer(
    new Map(
      [session, logout].map((handler, i) => {
        const known = route(i === 0 ? 'session' : 'logout');
        return [known.path, { route: known, handler }];
      }),
    ),
  );
  let port = 0;
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A POST with exactly these header lines (a Cookie header may come several times). */
  const post = (path: string, headers: [string, string][]) =>
    new Promise<{
      status: number;
      body: { data?: { agent: { agency_id: string } }; error?: { code: string } };
    }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          // Given as raw lines, node:http adds no header of its own: Host and the length are ours.
          headers: [['Host', `127.0.0.1:${port}`], ['Content-Length', '0'], ...headers].flat(),
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const json: [string, string] = ['Content-Type', 'application/json'];

  it('finds the session cookie in a second Cookie header', async () => {
    const answer = await post('/api/auth/session', [
      json,
      ['Cookie', 'theme=dark'],
      ['Cookie', `__Host-session=${victim.token}`],
    ]);

    expect([answer.status, answer.body.data?.agent.agency_id]).toEqual([200, 'victim-agency']);
  });

  it('refuses the session cookie in two Cookie headers (401), and a planted one never counts', async () => {
    const twice = await post('/api/auth/session', [
      json,
      ['Cookie', `__Host-session=${attacker.token}`],
      ['Cookie', `__Host-session=${victim.token}`],
    ]);
    const planted = await post('/api/auth/session', [
      json,
      ['Cookie', `x=1,__Host-session=${attacker.token}`],
      ['Cookie', `__Host-session=${victim.token}`],
    ]);

    expect([twice.status, twice.body.error?.code]).toEqual([401, 'UNAUTHORIZED']);
    expect([planted.status, planted.body.data?.agent.agency_id]).toEqual([200, 'victim-agency']);
  });
  it('knows its own origin from the Host header: the console’s page is served, another port is refused (403)', async () => {
    const cookie: [string, string] = ['Cookie', `__Host-session=${victim.token}`];
    const own = await post('/api/auth/session', [json, cookie, ['Origin', `http://127.0.0.1:${port}`]]);
    const other = await post('/api/auth/session', [json, cookie, ['Origin', `http://127.0.0.1:${port + 1}`]]);

    expect([own.status, own.body.data?.agent.agency_id]).toEqual([200, 'victim-agency']);
    expect([other.status, other.body.error?.code]).toEqual([403, 'FORBIDDEN']);
  });
});
