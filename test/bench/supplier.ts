/**
 * `npm run bench:supplier`: what selling from Duffel costs beside the built-in network, measured the way
 * BENCHMARKS.md measures the rest — P1 cold start (import and init of each bundle in a fresh process),
 * P2 bundle size (a network stage's and a Duffel stage's bundles of the supplier functions), P3 the
 * adapter's own time per call over the same outside call (a bare fetch of the same Duffel request to the
 * local stand-in). Prints a Markdown section; BENCHMARKS.md keeps the last one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { supplierConditions } from '../../infra/bundling.ts';
import { startDuffelStandIn } from '../../infra/local/duffel-stand-in.ts';
import type { Session } from '../../shared/auth/session.ts';
import { createSearchRequest } from '../../shared/flights/search-request.ts';
import { createLogger } from '../../shared/log.ts';
import { type Route, routes, sweepJob } from '../../shared/routes.ts';
import { duffelSupplier } from '../../shared/supply/duffel/adapter.ts';
import { offerRequestBody } from '../../shared/supply/duffel/mapping.ts';
import { signingKeysOf } from '../helpers/signing-keys.ts';
import { median, percentile, round, table } from './lib.ts';
import { bundle } from './setup.ts';

const work = mkdtempSync(join(tmpdir(), 'bench-supplier-'));
const log = (message: string) => process.stderr.write(`${message}\n`);
const ROUNDS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const supplierFunctions = [
  ...(routes as readonly Route[]).filter((r) => r.grants.includes('supplier')),
  sweepJob,
];

// ---------------------------------------------------------------- P2
log('bundling the supplier functions for a network stage and a Duffel stage');
const floor = await bundle(join(work, 'ddb-only'), {
  contents:
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));",
});
const floorBytes = statSync(floor).size;
const bundles = new Map<string, string>();
for (const fn of supplierFunctions)
  for (const supplier of ['network', 'duffel'])
    bundles.set(
      `${fn.id} (${supplier})`,
      await bundle(join(work, supplier, fn.id), { file: fn.entry }, supplierConditions(supplier)),
    );
const sizeRows = [...bundles].map(([name, file]) => [
  name,
  statSync(file).size,
  round(statSync(file).size / floorBytes, 2),
]);

// ---------------------------------------------------------------- P1
log(`cold starts: ${ROUNDS} rounds of every bundle, shuffled`);
const keyFile = join(work, 'signing.key');
writeFileSync(keyFile, 'k'.repeat(64));
const env = {
  ...process.env,
  TABLE_NAME: 'bench',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
  SIGNING_KEY_FILE: keyFile,
  LOG_LEVEL: 'warn',
  NODE_OPTIONS: '',
};
const probe = (file: string) =>
  `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(JSON.stringify({ importMs: performance.now() - t }));`;
const cold = new Map<string, { processMs: number[]; importMs: number[] }>();
const coldIds = [...bundles.keys(), 'ddb-only'];
for (let round = 0; round < ROUNDS; round++) {
  for (const id of [...coldIds].sort(() => Math.random() - 0.5)) {
    const file = id === 'ddb-only' ? floor : (bundles.get(id) ?? '');
    const duffel = id.includes('(duffel)');
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe(file)], {
      env: {
        ...env,
        SUPPLIER: duffel ? 'duffel' : 'network',
        ...(duffel && { DUFFEL_ACCESS_TOKEN: 'duffel_test_bench', DUFFEL_API_URL: 'http://127.0.0.1:1' }),
      },
      encoding: 'utf8',
    });
    const processMs = performance.now() - started;
    const line = run.stdout.split('\n').find((l) => l.startsWith('{"importMs"'));
    if (!line) throw new Error(`${id} did not start: ${run.stderr.slice(-300)}`);
    const entry = cold.get(id) ?? { processMs: [], importMs: [] };
    entry.processMs.push(processMs);
    entry.importMs.push(JSON.parse(line).importMs);
    cold.set(id, entry);
  }
}
const coldRows = coldIds.map((id) => {
  const entry = cold.get(id) ?? { processMs: [], importMs: [] };
  return [
    id,
    round(median(entry.processMs), 1),
    round(percentile(entry.processMs, 90), 1),
    round(median(entry.importMs), 1),
  ];
});

// ---------------------------------------------------------------- P3
log('adapter time over the same outside call');
// No rate limit here: this measures the adapter, not Duffel's patience.
const standIn = await startDuffelStandIn({ rateLimit: 1_000_000 });
const supplier = duffelSupplier({
  keys: await signingKeysOf('k'.repeat(64)),
  clock: { now: () => Date.now() },
  log: createLogger('error'),
  duffel: {
    baseUrl: standIn.url,
    token: 'duffel_test_bench',
    timeoutMs: 4000,
    orderTimeoutMs: 12000,
    maxTries: 2,
  },
});
const session: Session = {
  agentId: 'agt_bench',
  agentName: 'Bench',
  identifier: 'bench@example.com',
  agencyId: 'bench',
  role: 'AGENT',
  tokenId: 'jti',
  issuedAt: 0,
  expiresAt: 0,
  signedInAt: 0,
  expiredLogouts: [],
};
const date = new Date(Date.now() + 14 * 864e5).toISOString().slice(0, 10);
const search = createSearchRequest({ now: () => Date.now() }).parse({
  origin: 'LHR',
  destination: 'JFK',
  departure_date: date,
  return_date: new Date(Date.now() + 21 * 864e5).toISOString().slice(0, 10),
});
const headers = {
  Authorization: 'Bearer duffel_test_bench',
  'Duffel-Version': 'v2',
  'Content-Type': 'application/json',
};
const bare = async () => {
  const response = await fetch(`${standIn.url}/air/offer_requests?return_offers=true`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ data: offerRequestBody(search) }),
  });
  await response.json();
};
const adapter = async () => {
  await supplier.search(search, session);
};
const samples = { bare: [] as number[], adapter: [] as number[] };
for (let i = 0; i < 20; i++) {
  await bare();
  await adapter();
}
for (let block = 0; block < 10; block++)
  for (const [name, call] of [
    ['bare', bare],
    ['adapter', adapter],
  ] as const)
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      await call();
      samples[name].push(performance.now() - started);
    }
await standIn.close();

const p50 = (name: keyof typeof samples) => median(samples[name]);
console.log(
  [
    `## Suppliers (npm run bench:supplier, ${new Date().toISOString().slice(0, 19)}Z, Node ${process.versions.node})`,
    '',
    `P2: each supplier function bundled as a network stage and as a Duffel stage bundles it (its \`#supplier\` condition, infra/bundling.ts); the floor is the DynamoDB-only bundle (${floorBytes} bytes).`,
    '',
    table(['function (stage supplier)', 'bytes', '× floor'], sizeRows),
    '',
    `P1: a fresh Node process importing the bundle (module evaluation and init: configuration, the signing key from a file, the clients, the supplier), ${ROUNDS} rounds in a shuffled order; no first invocation (it would time a network call to Duffel, which belongs to Duffel). Deployed, a Duffel function also reads its token from Secrets Manager at init: one more call, like the signing key's.`,
    '',
    table(['bundle', 'process median ms', 'process p90 ms', 'import median ms'], coldRows),
    '',
    `P3: a round-trip search through the Duffel adapter (the offer request, then mapping every offer to a Flight with UTC times, sealing its id, sorting) against a bare \`fetch\` of the same offer request to the local stand-in, parsed, ${samples.bare.length} calls each in alternating blocks: p50 ${round(p50('bare'), 3)} ms bare, ${round(p50('adapter'), 3)} ms through the adapter, **${round(p50('adapter') - p50('bare'), 3)} ms** the adapter's own (p90 ${round(percentile(samples.adapter, 90) - percentile(samples.bare, 90), 3)} ms). The stand-in answers 9 round-trip offers.`,
  ].join('\n'),
);
