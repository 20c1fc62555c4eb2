import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleHandler } from '#shared/console/lambda.ts';
import { readConsoleFiles } from '#shared/console/serve.ts';
import { FIXTURE_CONSOLE, writeFixtureConsoleBuild } from '#test/helpers/console-build.ts';
import { CONSOLE_CSP, consolePageHeaders } from '#test/helpers/console-headers.ts';

const handler = consoleHandler(readConsoleFiles(writeFixtureConsoleBuild()));
const PERMISSIONS_POLICY = consolePageHeaders()['Permissions-Policy'];
// The function runs only deployed, where Lambda names it: every answer says HSTS.
beforeAll(() => {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'console');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * The REST proxy event API Gateway sends for `path` on the default endpoint's stage `dev`, from a
 * browser holding a session cookie unless `cookies` says otherwise (each a Cookie field).
 */
function request(
  path: string,
  httpMethod = 'GET',
  stagePath = `/dev${path}`,
  cookies: string[] = ['__Host-session=a.b.c'],
): APIGatewayProxyEvent {
  return {
    httpMethod,
    path,
    headers: cookies.length ? { Cookie: cookies.join('; ') } : null,
    multiValueHeaders: cookies.length ? { Cookie: cookies } : null,
    requestContext: { requestId: 'req-1', path: stagePath },
  } as unknown as APIGatewayProxyEvent;
}

describe('fn: console', () => {
  it.each([
    '/',
    '/sign-in',
    '/search',
    '/book',
    '/bookings',
    '/bookings/bkg_01KB2Z7Y3Q8W9X0V1T2S3R4P5N',
    '/agency/agents',
    '/agency/webhooks',
  ])('answers the page at the screen address %s, no-cache, with the console’s headers', async (path) => {
    const answer = await handler(request(path));

    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Permissions-Policy': PERMISSIONS_POLICY,
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      Vary: 'Accept-Encoding, Cookie',
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
      'X-Request-Id': 'req-1',
    });
    expect(answer.body).toContain('<div id="app"></div>');
  });

  it('answers a hashed asset for a year, immutable, with its type and the same headers', async () => {
    const script = await handler(request('/assets/app-7D2C9F04.js'));
    const style = await handler(request('/assets/app-5EC0A3B1.css'));

    expect(script).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': CONSOLE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Permissions-Policy': PERMISSIONS_POLICY,
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Resource-Policy': 'same-origin',
        Vary: 'Accept-Encoding',
        'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
        'X-Request-Id': 'req-1',
      },
      body: FIXTURE_CONSOLE['assets/app-7D2C9F04.js'],
    });
    expect(style.headers?.['Content-Type']).toBe('text/css; charset=utf-8');
    expect(style.body).toBe(FIXTURE_CONSOLE['assets/app-5EC0A3B1.css']);
  });

  it('points the page’s assets below the stage and tells the page its base; at a domain’s root, as built', async () => {
    const staged = (await handler(request('/bookings/bkg_1'))).body;
    const atRoot = (await handler(request('/bookings/bkg_1', 'GET', '/bookings/bkg_1'))).body;
    const home = (await handler(request('/', 'GET', '/dev/'))).body;

    expect(staged).toContain('src="/dev/assets/app-7D2C9F04.js"');
    expect(staged).toContain('href="/dev/assets/app-5EC0A3B1.css"');
    expect(staged).toContain('<meta name="console-base" content="/dev">');
    expect(home).toContain('<meta name="console-base" content="/dev">');
    expect(atRoot).toBe(FIXTURE_CONSOLE['index.html']);
  });

  it('tells the page when its request carried no session cookie, so sign-in shows without a check', async () => {
    const NONE = '<meta name="console-session" content="none">';
    const answers = await Promise.all(
      [[], ['theme=dark'], ['__Host-session=a.b.c'], ['__Host-session=a', '__Host-session=b']].map(
        async (cookies) => (await handler(request('/sign-in', 'GET', '/sign-in', cookies))).body,
      ),
    );

    expect(answers[0]).toBe(FIXTURE_CONSOLE['index.html'].replace('<head>', `<head>${NONE}`));
    expect(answers[1]).toContain(NONE);
    // A cookie (or two, which the session route refuses) is for the session route to judge.
    expect(answers[2]).toBe(FIXTURE_CONSOLE['index.html']);
    expect(answers[3]).toBe(FIXTURE_CONSOLE['index.html']);
  });

  it('never writes a prefix it did not recognise into the page', async () => {
    const odd = (await handler(request('/search', 'GET', '/"><script>x</script>/search'))).body;

    expect(odd).toBe(FIXTURE_CONSOLE['index.html']);
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await handler(request('/bookings', 'HEAD'));

    expect(answer.statusCode).toBe(200);
    expect(answer.headers?.['Cache-Control']).toBe('no-cache');
    expect(answer.body).toBe('');
  });

  it.each([
    '/assets/app-0000.js',
    '/assets/../index.html',
    '/assets/nested/app-7D2C9F04.js',
    '/index.html',
    '/bookings/',
    '/bookings/a/b',
    '/agency',
    '/search/',
  ])('answers %s 404 NOT_FOUND in the envelope', async (path) => {
    const answer = await handler(request(path));

    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No endpoint at this path.', request_id: 'req-1' },
    });
    expect(answer.headers?.['Cache-Control']).toBe('no-store');
    expect(answer.headers?.['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
  });

  it('answers any other method 405 with Allow: GET, HEAD', async () => {
    const answer = await handler(request('/', 'POST'));

    expect(answer.statusCode).toBe(405);
    expect(answer.headers?.Allow).toBe('GET, HEAD');
    expect(answer.headers?.['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
    expect(JSON.parse(answer.body).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
