import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBelow } from '#shared/console/lambda.ts';
import { isScreenPath } from '#shared/console/serve.ts';
import { newAgency, newPage, type Served, shared, signInThroughForm } from './harness.ts';
import { button, named, search } from './steps.ts';

const STAGE = '/dev';

/**
 * API Gateway's default address as the browser sees it: every path below the stage. Forwards
 * `/dev/<path>` to the run's `npm start` as `/<path>` and gives a screen's page the stage the way the
 * deployed function does (its own rewrite, shared/console/lambda.ts); anything outside the stage is a
 * 404 and is noted, so an address the app forgot to put below the stage fails the test.
 */
async function stageProxy(upstream: Served) {
  const outside: string[] = [];
  const target = new URL(upstream.url);
  const proxy = createServer((incoming, outgoing) => {
    const url = incoming.url ?? '/';
    if (url !== STAGE && !url.startsWith(`${STAGE}/`) && !url.startsWith(`${STAGE}?`)) {
      outside.push(`${incoming.method} ${url}`);
      outgoing.writeHead(404).end();
      return;
    }
    const own = url.slice(STAGE.length) || '/';
    const path = new URL(own, 'http://stage').pathname;
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: own,
        // The browser's own Host, as API Gateway passes it to the function: the API knows its origin by it.
        headers: { ...incoming.headers, 'accept-encoding': 'identity' },
      },
      (answer) => {
        if (!isScreenPath(path) || answer.statusCode !== 200) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const page = pageBelow(Buffer.concat(chunks).toString('utf8'), STAGE);
          const { 'content-length': _length, ...headers } = answer.headers;
          outgoing.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(page) }).end(page);
        });
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    // The cookie's domain and the page's origin: the same host name npm start is reached by.
    url: `${target.protocol}//${target.hostname}:${port}`,
    outside,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe('browser: the console below a stage (API Gateway’s default address)', () => {
  const server = shared();
  let staged: Awaited<ReturnType<typeof stageProxy>>;
  beforeAll(async () => {
    staged = await stageProxy(server);
  });
  afterAll(() => staged?.close());

  it('keeps every address, link, history entry and API call below the stage', async () => {
    const admin = await newAgency(server);
    await using watched = await newPage();
    const { page, errors } = watched;
    const at = (path: string) => (url: URL) => url.pathname === `${STAGE}${path}`;

    await page.goto(`${staged.url}${STAGE}/bookings`);
    // Signed out: to sign-in below the stage, to come back to the app's own address.
    await page.waitForURL(at('/sign-in'));
    expect(new URL(page.url()).searchParams.get('next')).toBe('/bookings');
    await signInThroughForm(page, { ...server, url: staged.url }, admin.identifier);
    await page.waitForURL(at('/bookings'));
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Search' }).getAttribute('href')).toBe(`${STAGE}/search`);
    expect(await nav.getByRole('link', { name: 'Bookings' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(at('/search'));

    const found = await search(page);
    await button(found.first(), 'Select').click();
    await page.waitForURL(at('/book'));
    await page.getByRole('group', { name: named('Passenger 1') }).waitFor();
    await page.goBack();
    await page.waitForURL(at('/search'));
    await page.reload();
    await page.getByRole('button', { name: named('Search') }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${STAGE}/search`);

    expect(staged.outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
