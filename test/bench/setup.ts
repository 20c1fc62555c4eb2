/**
 * The shared setup of `npm run bench`: the environment a function sees, DynamoDB Local with the table,
 * SES and SNS stubbed at their SDK clients, every route's handler, agents, session tokens, sealed offers,
 * the bundles (built once, on first use) and the report writer. Each benchmark module takes the
 * {@link Bench} that {@link startBench} returns.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { build } from 'esbuild';
import { bundleAliases, bundling, supplierConditions } from '../../infra/bundling.ts';
import { ensureTable } from '../../infra/local/bootstrap.ts';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import { registerAgent } from '../../shared/agency/agent-changes.ts';
import { issueSessionToken } from '../../shared/auth/session-token.ts';
import { exampleTraveller } from '../../shared/bookings/example-traveller.ts';
import { bucketLimits } from '../../shared/flights/fares.ts';
import { quotedFlightView } from '../../shared/flights/flight-view.ts';
import { flightDateKey } from '../../shared/flights/inventory-item.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { sealOffer } from '../../shared/flights/offers.ts';
import { priceItinerary } from '../../shared/flights/pricing.ts';
import { flightsOn, legBetween, type ScheduledFlight } from '../../shared/flights/schedule.ts';
import { type Route, routes } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import type { Section } from './lib.ts';

export const root = join(import.meta.dirname, '..', '..');

/**
 * Bundles `entry` exactly as the stack does (infra/bundling.ts), into `outDir/index.mjs`.
 * `contents` replaces the entry with inline source (for the baselines); `conditions` are what the stack
 * gives a supplier function (infra/bundling.ts, supplierConditions).
 */
export async function bundle(
  outDir: string,
  entry: { file: string } | { contents: string },
  conditions: string[] = [],
): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'index.mjs');
  await build({
    ...('file' in entry
      ? { entryPoints: [join(root, entry.file)] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts' } }),
    bundle: true,
    outfile,
    absWorkingDir: root,
    format: bundling.format,
    platform: bundling.platform,
    target: bundling.target,
    minify: bundling.minify,
    sourcemap: bundling.sourceMap ? 'external' : false,
    external: [...bundling.externalModules],
    banner: { js: bundling.banner },
    alias: bundleAliases(root),
    conditions,
    logLevel: 'silent',
  });
  return outfile;
}

/** Every function's bundle (by route id) and the reference bundles P1 and P2 measure against. */
export interface Bundles {
  readonly routes: ReadonlyMap<string, string>;
  /** A handler answering at once. */
  readonly bare: string;
  /** Only DynamoDBDocumentClient: P2's floor. */
  readonly ddbOnly: string;
  /** Only the DynamoDB client, one GetItem: P1's floor, the least the SDK allows. */
  readonly ddbFloor: string;
  /** The floor plus the one thing every function must also do at init: read the signing key. */
  readonly ddbSecret: string;
}

async function bundleAll(work: string, log: (message: string) => void): Promise<Bundles> {
  log('bundling every function as the stack does');
  const bundles = new Map<string, string>();
  for (const route of routes as readonly Route[]) {
    // As a network stage deploys them: a supplier function carries the built-in network only.
    const forSupplier = route.grants.includes('supplier') || route.grants.includes('supplier-catalog');
    const conditions = forSupplier ? supplierConditions('network') : [];
    bundles.set(route.id, await bundle(join(work, 'bundles', route.id), { file: route.entry }, conditions));
  }
  const bare = await bundle(join(work, 'bundles', 'bare'), {
    contents: "export const handler = async () => ({ statusCode: 200, body: '{}' });",
  });
  const ddbOnly = await bundle(join(work, 'bundles', 'ddb-only'), {
    contents:
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));",
  });
  const ddbFloor = await bundle(join(work, 'bundles', 'ddb-floor'), {
    contents: [
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
      'const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));',
      "export const handler = async () => { await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'x', sk: 'y' } })); return { statusCode: 200, body: '{}' }; };",
    ].join('\n'),
  });
  const ddbSecret = await bundle(join(work, 'bundles', 'ddb-secret'), {
    contents: [
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
      "import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';",
      'const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT }));',
      'const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: process.env.SIGNING_KEY_SECRET_ID }));',
      "if (!secret.SecretString) throw new Error('no secret');",
      "export const handler = async () => { await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'x', sk: 'y' } })); return { statusCode: 200, body: '{}' }; };",
    ].join('\n'),
  });
  return { routes: bundles, bare, ddbOnly, ddbFloor, ddbSecret };
}

export type Handler = (event: unknown, ctx: unknown) => Promise<{ statusCode: number; body: string }>;

/** What the benchmarks share; stop it with {@link Bench.stop}. */
export type Bench = Awaited<ReturnType<typeof startBench>>;

/**
 * Starts DynamoDB Local, sets the environment a function sees (before the process context is first
 * imported), stubs SES and SNS at their SDK clients (P4 counts their calls), creates the table and
 * imports every route's handler.
 */
export async function startBench(log: (message: string) => void) {
  const work = mkdtempSync(join(tmpdir(), 'flight-bench-'));
  const dynamo = await startDynamoDbLocal();
  const keyFile = join(work, 'signing.key');
  writeFileSync(keyFile, randomBytes(48).toString('base64url'));
  const functionEnv: Readonly<Record<string, string>> = {
    TABLE_NAME: 'bench',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SIGNING_KEY_FILE: keyFile,
    DATA_DIR: work,
    OTP_SEND_MIN_MS: '0',
    LOG_LEVEL: 'error',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  Object.assign(process.env, functionEnv, { CODE_SENDER: 'aws', SES_FROM_ADDRESS: 'no-reply@example.com' });
  // SES and SNS are the only stubs, at the SDK client: P4 counts their calls.
  const ses = mockClient(SESClient);
  ses.on(SendEmailCommand).resolves({ MessageId: 'bench' });
  const sns = mockClient(SNSClient);
  sns.on(PublishCommand).resolves({ MessageId: 'bench' });

  const { context } = await import('../../shared/context.ts');
  // No stream: nothing reads it here, and DynamoDB Local's stream records slow every write (bootstrap.ts).
  await ensureTable(context.db, 'bench', { stream: false });
  const handlers = new Map<string, Handler>();
  for (const route of routes)
    handlers.set(route.id, ((await import(join(root, route.entry))) as { handler: Handler }).handler);
  const lambdaContext = {
    awsRequestId: 'bench',
    functionName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
  };

  const today = new Date().toISOString().slice(0, 10);
  const clock = context.clock;
  const agency = 'bench-agency';
  let agentCount = 0;
  const lhrJfk = legBetween('LHR', 'JFK');
  if (!lhrJfk) throw new Error('LHR-JFK missing');
  const flightsFor = (daysAhead: number) => flightsOn(lhrJfk, addDays(today, daysAhead));
  let bundled: Promise<Bundles> | undefined;
  const floors = new Map<string, Promise<string>>();

  return {
    work,
    keyFile,
    functionEnv,
    context,
    clock,
    ses,
    sns,
    lambdaContext,
    today,
    /** A week ahead: the date the searches ask for. */
    travelDate: addDays(today, 7),
    log,

    /** A new agent of the bench agency, or of `agencyId` (a new identifier each call). */
    newAgent(
      prefix: string,
      role: 'AGENT' | 'ADMIN' = 'AGENT',
      type: 'EMAIL' | 'PHONE' = 'EMAIL',
      agencyId = agency,
    ) {
      agentCount += 1;
      return registerAgent(context, clock, {
        identifier:
          type === 'EMAIL'
            ? `${prefix}-${agentCount}@example.com`
            : `+4474001${String(agentCount).padStart(5, '0')}`,
        type,
        name: 'Bench Agent',
        agencyId,
        role,
      });
    },

    /** The Authorization header of a new session token of `agent`. */
    async bearer(agent: { id: string; agency_id: string }, key = context.keys.token) {
      const { token } = await issueSessionToken(agent, { tokens: { ...context.tokens, key }, clock });
      return { Authorization: `Bearer ${token}` };
    },

    /** A sealed offer for one seat on `flight` at fare bucket `bucket`, and the create body that books it. */
    offerFor(
      flight: ScheduledFlight,
      bucket: number,
      travelClass: 'ECONOMY' | 'FIRST',
      offerKey = context.keys.offer,
      agencyId = agency,
    ) {
      const pax = { adults: 1, children: 0, infants: 0 };
      const capacity = flight.leg.aircraft.seats[travelClass] ?? 0;
      const limits = bucketLimits(travelClass, capacity);
      const soldBefore = bucket === 0 ? 0 : (limits[bucket - 1] ?? 0);
      const priced = priceItinerary(
        [flight],
        travelClass,
        pax,
        new Map([[flightDateKey(flight), soldBefore]]),
      );
      if (!priced) throw new Error('cannot price the bench offer');
      const quote = {
        agencyId,
        expiresAt: Math.floor(clock.now() / 1000) + 1200,
        travelClass,
        passengers: pax,
        segments: [{ flightNumber: flight.flightNumber, date: flight.date, bucket: priced.buckets[0] ?? 0 }],
        total: priced.total,
        currency: 'EUR',
        seatsShown: 9,
      };
      const id = sealOffer(offerKey, quote);
      return {
        flight_id: id,
        flight_details: quotedFlightView(id, quote, [flight]),
        total_price: quote.total / 100,
        currency: 'EUR',
        ...exampleTraveller,
      };
    },

    /** The LHR→JFK flights `daysAhead` days from today. */
    flightsFor,

    /** The `index`-th LHR→JFK flight (modulo the day's count) `daysAhead` days from today. */
    flightAt(daysAhead: number, index: number) {
      const flights = flightsFor(daysAhead);
      const flight = flights[index % flights.length];
      if (!flight) throw new Error('no LHR-JFK flight');
      return flight;
    },

    /** Calls `routeId`'s handler in this process with an API Gateway event; the answer, parsed. */
    async invoke(routeId: string, path: string, body: unknown, headers: Record<string, string> = {}) {
      const handler = handlers.get(routeId);
      if (!handler) throw new Error(routeId);
      const result = await handler(apiEvent({ path, body, headers }), lambdaContext);
      return { status: result.statusCode, body: JSON.parse(result.body) };
    },

    pathOf: (routeId: string) => routes.find((r) => r.id === routeId)?.path ?? '',

    /**
     * A route's floor (floor.ts) able to send `commands` (lib-dynamodb's names) and no other: one
     * bundle per set of commands, built once. With `channel`, the floor then sends one code message
     * through that channel's SDK client, loaded on first use as send-otp loads it (create-code-sender.ts).
     */
    floorBundle(commands: readonly string[], channel?: 'EMAIL' | 'SMS'): Promise<string> {
      const names = [...new Set(commands)].sort();
      const key = [names.join('+') || 'none', channel].filter(Boolean).join('-');
      let built = floors.get(key);
      if (!built) {
        const send = {
          EMAIL: [
            "const { SESClient, SendEmailCommand } = await import('@aws-sdk/client-ses');",
            "await new SESClient(AWS_CLIENT_OPTIONS).send(new SendEmailCommand({ Source: 'no-reply@example.com', Destination: { ToAddresses: ['agent@example.com'] }, Message: { Subject: { Data: 'Your code', Charset: 'UTF-8' }, Body: { Text: { Data: 'Your code is 123456', Charset: 'UTF-8' } } } }));",
          ],
          SMS: [
            "const { SNSClient, PublishCommand } = await import('@aws-sdk/client-sns');",
            "await new SNSClient(AWS_CLIENT_OPTIONS).send(new PublishCommand({ PhoneNumber: '+447700900123', Message: 'Your code is 123456' }));",
          ],
        };
        built = bundle(join(work, 'bundles', `floor-${key}`), {
          contents: [
            `import { ${names.join(', ')} } from '@aws-sdk/lib-dynamodb';`,
            "import { floorHandler } from './test/bench/floor.ts';",
            ...(channel
              ? [
                  "import { AWS_CLIENT_OPTIONS } from './shared/aws-client-options.ts';",
                  `export const handler = floorHandler({ ${names.join(', ')} }, async () => {`,
                  ...send[channel],
                  '});',
                ]
              : [`export const handler = floorHandler({ ${names.join(', ')} });`]),
          ].join('\n'),
        });
        floors.set(key, built);
      }
      return built;
    },

    /** Every function and reference bundled, once, on first call. */
    bundles: () => {
      bundled ??= bundleAll(work, log);
      return bundled;
    },

    /** Stops DynamoDB Local and removes the working folder (bundles, events, signing key). */
    async stop() {
      await dynamo.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Writes BENCHMARKS.md: the header (when, where, what is not measured), then `sections`. */
export function writeReport(sections: readonly Section[], startedAt: number): void {
  const header = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 19)}Z in ${Math.round((Date.now() - startedAt) / 1000)} s. Every figure comes with a baseline measured in the same run; figures move with the machine, ratios much less.`,
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform} ${process.arch}; Node ${process.versions.node}; DynamoDB Local (in memory).`,
    '',
    '## Not measured here',
    '',
    '- **The network to AWS and TLS.** DynamoDB is DynamoDB Local over plain HTTP on the loopback; Secrets Manager, SES and SNS are a local stand-in. A deployed cold start adds a TLS handshake per service (DynamoDB, Secrets Manager, and SES or SNS in send-otp), and every request its round trips to DynamoDB.',
    "- **Lambda's own init.** The sandbox, the runtime's bootstrap and the function's download and unpacking happen before the code runs and are not in any figure. P1 runs with a whole CPU; Lambda's CPU share (512 MB gets about 0.29 of a vCPU, so CPU-bound work takes up to about 3× as long) is simulated only in the memory sizing, by the same mechanism (a CFS quota).",
    '- **arm64.** The stack deploys arm64 (Graviton); this machine is x64. Ratios to a floor measured in the same run carry over better than milliseconds.',
    "- **DynamoDB's storage engine.** DynamoDB Local is a different engine; P5 shows how this code's work grows with the table, not DynamoDB's latency at scale.",
    '',
    "Every goal is stated beside its floor: the same measure of the least a function built on the same parts could do (a bundle holding only the DynamoDB client, reading the signing key and making the route's own DynamoDB calls; the same DynamoDB call through the same SDK client; an uncontended run).",
    '',
  ];
  const report = sections.flatMap(({ title, lines }) => [`## ${title}`, '', ...lines, '']);
  writeFileSync(join(root, 'BENCHMARKS.md'), `${[...header, ...report].join('\n').trimEnd()}\n`);
}
