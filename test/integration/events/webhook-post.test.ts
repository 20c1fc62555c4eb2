import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook } from '#shared/events/webhook-post.ts';

/** One POST as the delivery function makes it, against real HTTP servers on 127.0.0.1. */
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
const loopback = { address: '127.0.0.1', family: 4 } as const;

describe('postWebhook', () => {
  it('connects to the checked address, whatever the name would resolve to, and sends the headers and body', async () => {
    let seen: { host?: string; signature?: string; body: string } = { body: '' };
    const port = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen = { host: req.headers.host, signature: String(req.headers['webhook-signature']), body };
        res.writeHead(204).end();
      });
    });
    // A name that resolves nowhere: only the pinned address is used.
    const url = new URL(`http://receiver.invalid:${port}/hooks`);
    const outcome = await postWebhook(url, loopback, { 'webhook-signature': 'v1,abc' }, '{"a":1}');
    expect(outcome).toEqual({ delivered: true, status: 204 });
    expect(seen).toEqual({ host: `receiver.invalid:${port}`, signature: 'v1,abc', body: '{"a":1}' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt and the target is never asked', async () => {
    let targetHit = false;
    const target = await serve((_req, res) => {
      targetHit = true;
      res.writeHead(204).end();
    });
    const port = await serve((_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.1:${target}/` }).end();
    });
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}');
    expect(outcome).toEqual({ delivered: false, status: 307 });
    expect(targetHit).toBe(false);
  });

  it('reads at most a few KB of an answer', async () => {
    let written = 0;
    const port = await serve((_req, res) => {
      res.writeHead(200);
      // An endless answer: the client must stop reading.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 64 * 1024 * 1024) res.once('drain', pump);
      };
      pump();
    });
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}');
    expect(outcome).toEqual({ delivered: true, status: 200 });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('gives up on a receiver that never answers, at its deadline', async () => {
    const port = await serve(() => undefined);
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}', 300);
    expect(outcome).toEqual({ delivered: false, error: 'timeout' });
  });

  it('reports a refused connection', async () => {
    const port = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}');
    expect(outcome).toEqual({ delivered: false, error: 'connection' });
  });

  it('answers 5xx and 4xx as failed attempts with their status', async () => {
    for (const status of [400, 410, 500, 503]) {
      const port = await serve((_req, res) => {
        res.writeHead(status).end('nope');
      });
      expect(await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}')).toEqual({
        delivered: false,
        status,
      });
    }
  });

  it('delivers a 2xx whose body trickles past the deadline: the status decides, the body is not awaited', async () => {
    let closed = false;
    const port = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
      // One byte every 50 ms, for far longer than the deadline.
      const drip = setInterval(() => res.write('a'), 50);
      res.on('close', () => {
        clearInterval(drip);
        closed = true;
      });
    });
    const started = Date.now();
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}', 400);
    expect(outcome).toEqual({ delivered: true, status: 200 });
    expect(Date.now() - started).toBeLessThan(400);
    // The connection is closed, not left dripping.
    await expect.poll(() => closed, { timeout: 2000 }).toBe(true);
  });

  it('a status that comes after the deadline is a timeout', async () => {
    const port = await serve((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(200).end(), 600);
    });
    const outcome = await postWebhook(new URL(`http://127.0.0.1:${port}/`), loopback, {}, '{}', 300);
    expect(outcome).toEqual({ delivered: false, error: 'timeout' });
  });
});
