/**
 * `npm start`: the whole service on this machine. DynamoDB Local keeps its data in DATA_DIR (default
 * `.data/`), the table and a demo agent are created when missing, and the route table is served on
 * 127.0.0.1:PORT (default 3000) by the very handlers that run in Lambda. Codes go to the outbox.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HOLD_ENDS_BEFORE_DEPARTURE_MS, HOLD_MINUTES } from '#shared/bookings/holds.ts';
import { systemClock } from '#shared/clock.ts';
import { readCoreConfig, readEventsConfig } from '#shared/config.ts';
import { readConsoleFiles } from '#shared/console/serve.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { createDeliveryDeps, createEventsDeps } from '#shared/events/events-context.ts';
import { NOTICES_FILE } from '#shared/events/notice-sender.ts';
import { OUTBOX_FILE } from '#shared/notify/outbox-sender.ts';
import { currentConsoleBuild } from '../web/build.ts';
import {
  DEMO_AGENT,
  ensureDemoAgent,
  ensureSigningKeyFile,
  ensureTable,
  LOCAL_TABLE_NAME,
} from './bootstrap.ts';
import { createDevServer, loadHandlers, loadSweep, localSweepEveryMs } from './dev-server.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { startEventsPipeline } from './events-pipeline.ts';
import {
  findRunningLocalStack,
  removeLocalStackInfo,
  resolveDataDir,
  writeLocalStackInfo,
} from './local-stack.ts';

const root = join(import.meta.dirname, '..', '..');

/** A length of time as the banner says it: `24 hours`, `1 minute`, `6 s`. */
function duration(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= 3600_000 && ms % 3600_000 === 0) return plural(ms / 3600_000, 'hour');
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return `${Math.round(ms / 100) / 10} s`;
}
const dataDir = resolveDataDir();
const port = Number(process.env.PORT ?? 3000);
await mkdir(dataDir, { recursive: true });

const running = await findRunningLocalStack(dataDir);
if (running) {
  console.error(`A local stack already runs on ${dataDir} (pid ${running.pid}, ${running.api_url}).`);
  process.exit(1);
}

const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
let stopping = false;
let stopEvents = async () => {};
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await removeLocalStackInfo(dataDir);
  await stopEvents();
  await dynamo.stop();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  Object.assign(process.env, {
    TABLE_NAME: LOCAL_TABLE_NAME,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SIGNING_KEY_FILE: await ensureSigningKeyFile(dataDir),
    CODE_SENDER: 'outbox',
    NOTICE_SENDER: 'file',
    DATA_DIR: dataDir,
    // Loopback receivers over http are allowed locally unless the caller asks for the deployed checks.
    WEBHOOK_URL_POLICY: process.env.WEBHOOK_URL_POLICY || 'local',
  });
  delete process.env.SIGNING_KEY_SECRET_ID;

  const db = createDocumentClient(dynamo.endpoint);
  const created = await ensureTable(db, LOCAL_TABLE_NAME);
  await ensureDemoAgent(db, LOCAL_TABLE_NAME, systemClock());

  // The event pipeline (docs/API.md §4.6): the table's stream -> notices and webhook deliveries.
  const eventsConfig = readEventsConfig();
  const events = await startEventsPipeline({
    endpoint: dynamo.endpoint,
    tableName: LOCAL_TABLE_NAME,
    dataDir,
    events: await createEventsDeps(eventsConfig),
    deliveries: await createDeliveryDeps(eventsConfig),
  });
  stopEvents = () => events.stop();

  // The agent console (docs/API.md §4.8): built into DATA_DIR, or the build there when it is current.
  const consoleBuild = await currentConsoleBuild(join(dataDir, 'console'));
  const server = createDevServer(
    await loadHandlers(root),
    readConsoleFiles(consoleBuild.outdir),
    events.nudge,
  );
  // The sweep Lambda's schedule, as a timer: late holds expire and free their seats (docs/API.md §4.4);
  // a remote supplier's PENDING bookings are settled (§4.5). SWEEP_INTERVAL_SECONDS shortens it for tests.
  const sweep = await loadSweep(root);
  const every = localSweepEveryMs(process.env.SWEEP_INTERVAL_SECONDS);
  const sweeping = setInterval(() => {
    sweep().catch((error: unknown) => console.error(`sweep failed: ${(error as Error).name}`));
  }, every);
  sweeping.unref();
  const { readSupplierConfig } = await import('#shared/supply/supplier-config.ts');
  const supplier = readSupplierConfig();
  const holdMinutes = readCoreConfig().HOLD_MINUTES;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  await writeLocalStackInfo(dataDir, { dynamodb_endpoint: dynamo.endpoint, api_url: url, pid: process.pid });

  console.log(
    [
      '',
      `Flight booking API listening on ${url}`,
      `  data:       ${dataDir} (${created ? 'new database' : 'existing database'})`,
      `  demo agent: ${DEMO_AGENT.identifier} (agency ${DEMO_AGENT.agencyId})`,
      `  codes:      printed here and appended to ${join(dataDir, OUTBOX_FILE)}`,
      `  notices:    traveller e-mails appended to ${join(dataDir, NOTICES_FILE)}`,
      `  webhooks:   delivered over HTTP (${eventsConfig.WEBHOOK_URL_POLICY} URL checks, retry delays x${eventsConfig.EVENTS_TIME_SCALE})`,
      `  console:    ${url}/ (${consoleBuild.built ? 'built now' : 'current build'} in ${consoleBuild.outdir})`,
      `  docs:       ${url}/docs (OpenAPI: ${url}/openapi.json)`,
      `  flights:    ${supplier.SUPPLIER === 'duffel' ? `Duffel at ${supplier.DUFFEL_API_URL}` : 'the built-in network'}`,
      `  holds:      last ${duration((holdMinutes ?? HOLD_MINUTES) * 60_000)}${holdMinutes === undefined ? '' : ' (HOLD_MINUTES)'}, ending ${duration(HOLD_ENDS_BEFORE_DEPARTURE_MS)} before departure at the latest`,
      `  sweep:      every ${duration(every)}${process.env.SWEEP_INTERVAL_SECONDS ? ' (SWEEP_INTERVAL_SECONDS)' : ''}: late holds expire, PENDING bookings settle`,
      '  stop:       Ctrl-C',
      '',
    ].join('\n'),
  );
} catch (error) {
  // ConfigError messages name the variable and the rule, never a token.
  console.error(`Start-up failed: ${(error as Error).message}`);
  await stop(1);
}
