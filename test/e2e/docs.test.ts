import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sharedServer } from '#test/helpers/shared-server.ts';

const server = sharedServer();

describe('e2e: API documentation', () => {
  it('serves the committed OpenAPI document at /openapi.json', async () => {
    const response = await fetch(`${server.url}/openapi.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(JSON.parse(readFileSync('openapi.json', 'utf8')));
  });

  it('serves a docs page that loads Swagger UI from the server itself, not a CDN', async () => {
    const page = await (await fetch(`${server.url}/docs`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');

    expect(assets).toContain('/docs/init.js');
    expect(await (await fetch(`${server.url}/docs/init.js`)).text()).toContain("url: '/openapi.json'");
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/'), asset).toBe(true);
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('sends the docs page with a CSP Swagger UI works under: nothing inline, nothing from elsewhere, never framed', async () => {
    const response = await fetch(`${server.url}/docs`);
    const page = await response.text();

    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // What the policy allows is what the page uses: every script and stylesheet a file of this server.
    expect([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/docs/swagger-ui-bundle.js">',
      '<script src="/docs/init.js">',
    ]);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    // Plain HTTP locally: no HSTS (browsers ignore it here, and it would pin 127.0.0.1 to HTTPS).
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('says nosniff on the document, the page and its assets', async () => {
    for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui-bundle.js', '/docs/init.js']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'answers /docs/%s as an unknown path: 404 in the envelope',
    async (name) => {
      const response = await fetch(`${server.url}/docs/${name}`);

      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    },
  );

  it('answers other methods on the document with 405 and Allow: GET', async () => {
    const response = await fetch(`${server.url}/openapi.json`, { method: 'POST' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('e2e: what every response carries, whatever the request', () => {
  it('gives the docs page, its assets and the document an X-Request-Id like every API response', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui.css', '/openapi.json', '/nowhere']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers headers too large for the server (20 KB) in the envelope, with an X-Request-Id', async () => {
    // A raw request: the answer comes before the server has read it all, and the connection then closes.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        `POST /api/auth/send-otp HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
      );
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');

    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    expect(head).toMatch(/\r\nCache-Control: no-store\r\n/);
    const envelope = JSON.parse(body);
    expect(envelope).toEqual({
      success: false,
      error: {
        code: 'REQUEST_REJECTED',
        message: 'The request headers are too large.',
        request_id: /X-Request-Id: ([0-9a-f-]{36})/.exec(head)?.[1],
      },
    });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'answers a request with a header named %s like any other (never a 5xx)',
    async (name) => {
      // fetch() refuses some header names; a raw request sends exactly what an attacker would.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${server.url}/api/auth/send-otp`,
          { method: 'POST', headers: { 'Content-Type': 'application/json', [name]: 'x', 'X-Other': 'y' } },
          (res) => {
            let body = '';
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ identifier: `nobody-${name.toLowerCase()}@example.com`, type: 'EMAIL' }));
      });

      expect(answer.status).toBe(202);
      expect(JSON.parse(answer.body)).toEqual({ success: true, data: { expires_in: 300, resend_after: 30 } });
    },
  );
});
