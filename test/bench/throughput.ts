/**
 * P7 end to end: autocannon through the dev server (npm start) against a bare Node HTTP server answering
 * bodies of the same size. `BENCH_HTTP_SECONDS` per run (8). No goal.
 */

import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadSigningKeys } from '../../shared/auth/signing-keys.ts';
import { startLocalServer } from '../helpers/local-server.ts';
import { round, type Section, table } from './lib.ts';
import type { Bench } from './setup.ts';

/** A bare Node HTTP server answering `size` bytes to every request. */
async function bareServer(size: number) {
  const body = Buffer.alloc(size, 'x');
  const http = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(size),
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  return { http, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

type Cannon = (url: string, request: autocannon.Request) => Promise<autocannon.Result>;

/**
 * Signs in to a dev server of its own (npm start) as the demo agent, then runs search and create
 * through it: every create books a different offer. The server and its data folder are gone after.
 */
async function throughDevServer(bench: Bench, cannon: Cannon, warmUp: Cannon) {
  const server = await startLocalServer();
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: { verification_token: string } }>);
    await post('/api/auth/send-otp', { identifier: 'agent@example.com', type: 'EMAIL' });
    const outbox = readFileSync(join(server.dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n');
    const code = JSON.parse(outbox.at(-1) ?? '{}').code;
    const serverToken = (await post('/api/auth/verify-otp', { identifier: 'agent@example.com', code })).data
      .verification_token;
    const serverKeys = await loadSigningKeys({ file: join(server.dataDir, 'signing.key') });
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${serverToken}` };
    const searchBody = JSON.stringify({
      origin: 'LHR',
      destination: 'JFK',
      departure_date: bench.travelDate,
    });
    const createBodies = [...Array(60).keys()]
      .flatMap((d) => bench.flightsFor(d + 70))
      .flatMap((f) =>
        Array.from({ length: 100 }, () =>
          JSON.stringify(bench.offerFor(f, 5, 'ECONOMY', serverKeys.offer, 'demo-agency')),
        ),
      );
    let nextCreate = 0;
    const sizes = { search: 0, create: 0 };
    const searchRequest = { method: 'POST', path: '/api/flights/search', headers, body: searchBody } as const;
    const createRequest = {
      method: 'POST',
      path: '/api/flights/booking/create',
      headers,
      setupRequest: (req: autocannon.Request) => ({
        ...req,
        body: createBodies[nextCreate++ % createBodies.length],
      }),
    } as const;
    // Untimed first: a server just started (its handlers, DynamoDB Local's JVM) answers the first few
    // seconds far slower, and by how much depends on the machine's load.
    await warmUp(server.url, searchRequest);
    await warmUp(server.url, createRequest);
    const search = await cannon(server.url, searchRequest);
    sizes.search = Buffer.byteLength(
      await (
        await fetch(`${server.url}/api/flights/search`, { method: 'POST', headers, body: searchBody })
      ).text(),
    );
    const create = await cannon(server.url, createRequest);
    sizes.create = Buffer.byteLength(
      await (
        await fetch(`${server.url}/api/flights/booking/create`, {
          method: 'POST',
          headers,
          body: createBodies[nextCreate++],
        })
      ).text(),
    );
    return { search, create, sizes, headers, searchBody, createBody: createBodies[0] };
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

export async function throughput(bench: Bench): Promise<Section> {
  bench.log('end to end through the dev server');
  const DURATION = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
  const WARM_UP = 3;
  const run =
    (duration: number): Cannon =>
    (url, request) =>
      autocannon({ url, connections: 10, duration, requests: [request] });
  const cannon = run(DURATION);
  const {
    search: searchResult,
    create: createResult,
    sizes,
    headers: e2eHeaders,
    searchBody,
    createBody,
  } = await throughDevServer(bench, cannon, run(WARM_UP));
  const createStatuses = createResult.statusCodeStats as Record<string, { count: number }>;
  /** The same request against a bare server answering `size` bytes. */
  const bare = async (size: number, body: string | undefined) => {
    const { http, url } = await bareServer(size);
    try {
      return await cannon(url, { method: 'POST', path: '/', headers: e2eHeaders, body });
    } finally {
      http.close();
    }
  };
  const bareSearchResult = await bare(sizes.search, searchBody);
  const bareCreateResult = await bare(sizes.create, createBody);
  return {
    title: 'P7 end to end',
    lines: [
      `autocannon, 10 connections, ${DURATION} s each after an untimed ${WARM_UP} s of each, through the dev server (npm start: HTTP → API Gateway event → handler → DynamoDB Local) against a bare Node HTTP server answering a body of the same size (search ${sizes.search} B, create ${sizes.create} B). Every create books a different offer.`,
      '',
      table(
        ['run', 'req/s', 'p50 ms', 'p99 ms', 'answers'],
        [
          [
            'search',
            round(searchResult.requests.average, 1),
            searchResult.latency.p50,
            searchResult.latency.p99,
            JSON.stringify(searchResult.statusCodeStats),
          ],
          [
            'bare, search-sized',
            round(bareSearchResult.requests.average, 1),
            bareSearchResult.latency.p50,
            bareSearchResult.latency.p99,
            '',
          ],
          [
            'create',
            round(createResult.requests.average, 1),
            createResult.latency.p50,
            createResult.latency.p99,
            JSON.stringify(createStatuses),
          ],
          [
            'bare, create-sized',
            round(bareCreateResult.requests.average, 1),
            bareCreateResult.latency.p50,
            bareCreateResult.latency.p99,
            '',
          ],
        ],
      ),
      '',
      `The bare server answers ${round(bareSearchResult.requests.average / searchResult.requests.average, 0)}× the search rate and ${round(bareCreateResult.requests.average / createResult.requests.average, 0)}× the create rate: the reference shows what Node's HTTP layer costs alone (well under a millisecond); the rest is the work. p99 search ${searchResult.latency.p99} ms vs ${bareSearchResult.latency.p99} ms, create ${createResult.latency.p99} ms vs ${bareCreateResult.latency.p99} ms. No goal is set for P7.`,
    ],
  };
}
