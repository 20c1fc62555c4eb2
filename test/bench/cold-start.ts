/**
 * P1 cold start: each function's bundle started in a fresh Node process on the deployed init path
 * (signing key through Secrets Manager, codes through SES or SNS, both answered by a local stand-in),
 * each against its own floor: a bundle holding only the DynamoDB client, reading the signing key the
 * same way and making the DynamoDB calls the route makes (floor.ts). The old single floor (one GetItem)
 * stays as a reference column and, measured as two rows, as the run-to-run noise. `BENCH_COLD_RUNS`
 * rounds (15); `BENCH_COLD_ROWS` (comma-separated row ids) measures only those rows; instructions counted
 * by cachegrind when valgrind is present (`BENCH_CACHEGRIND=0` skips it).
 */

import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { routes } from '../../shared/routes.ts';
import { startAwsStandIn } from './aws-stand-in.ts';
import { apiName, floorCalls, prepareEvents, recordCallInputs, VARIANTS } from './cold-events.ts';
import { median, percentile, round, type Section, shuffled, table, verdict } from './lib.ts';
import { type Bench, root } from './setup.ts';

const run = promisify(execFile);
const COLD_GOAL = 1.15;
const INSTR_GOAL = 1.2;
const SECRET_ID = 'flight-booking/bench/signing-key';
const OLD_FLOOR = 'ddb-only (one GetItem)';
const NOISE = 'ddb-only (one GetItem), second row';

export interface ColdRun {
  /** Spawn to first answer, timed by the parent. */
  processMs: number;
  /** Process start to first answer, timed inside (no wrapper command). */
  totalMs: number;
  importMs: number;
  invokeMs: number;
  status: number;
  /** The process's peak resident memory, MB. */
  maxRssMb: number;
  /** Warm invocations after the first (memory sizing). */
  warm: { ms: number; status: number }[];
}

/**
 * One cold start: spawn → import → first invocation → answer, timed from outside and inside; then the
 * `warmEvents`, if any. `wrap` runs the process through a command (memory.ts: a cgroup, `taskset`).
 */
export function coldStartOnce(
  env: NodeJS.ProcessEnv,
  bundlePath: string,
  eventFile: string,
  { wrap = [], warmEvents = [] }: { wrap?: readonly string[]; warmEvents?: readonly string[] } = {},
): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [
      process.execPath,
      join(root, 'test/bench/harness.mjs'),
      bundlePath,
      eventFile,
      ...warmEvents,
    ];
    const [command = '', ...rest] = [...wrap, ...args];
    const child = spawn(command, rest, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let answered: ColdRun | undefined;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"importMs"') && l.endsWith('}'));
      answered ??= line ? { processMs: performance.now() - started, ...JSON.parse(line) } : undefined;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    // Timed at the answer, settled once the process is gone: no two measured processes overlap.
    child.once('close', (code) => {
      if (answered) resolve(answered);
      else reject(new Error(`cold start failed (${code}): ${err.slice(-1500)}`));
    });
  });
}

/**
 * Runs `measure` with the environment of the deployed init and send path: the signing key read through
 * Secrets Manager, codes sent through the SES and SNS clients, all answered by a local stand-in in their
 * wire formats; access logs on at info (into a pipe). Only DynamoDB Local and the stand-in replace AWS.
 */
export async function withColdEnv<T>(bench: Bench, measure: (env: NodeJS.ProcessEnv) => Promise<T>) {
  const standIn = await startAwsStandIn({ id: SECRET_ID, value: readFileSync(bench.keyFile, 'utf8') });
  try {
    const { SIGNING_KEY_FILE: _localKeyFile, ...parentEnv } = { ...process.env, ...bench.functionEnv };
    const result = await measure({
      ...parentEnv,
      ...standIn.env,
      SIGNING_KEY_SECRET_ID: SECRET_ID,
      CODE_SENDER: 'aws',
      SES_FROM_ADDRESS: 'no-reply@example.com',
      SMS_SENDER_ID: 'FlightBook',
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
    });
    bench.log(`stand-in answered ${JSON.stringify(standIn.calls)}`);
    return result;
  } finally {
    await standIn.close();
  }
}

/** The bundle of row `id`: its route's, for the variants too ("send-otp (SMS)", "search (round trip)"). */
export const routeOf = (id: string) => id.replace(/ \(.*\)$/, '');

/** The rows of every route and variant, or of BENCH_COLD_ROWS when set. */
export function routeRows(): string[] {
  const all: string[] = routes.flatMap((r) => [r.id, ...VARIANTS.filter((v) => routeOf(v) === r.id)]);
  const only = process.env.BENCH_COLD_ROWS?.split(',')
    .filter(Boolean)
    .map((id) => id.trim());
  if (!only?.length) return all;
  const unknown = only.filter((id) => !all.includes(id));
  if (unknown.length)
    throw new Error(`BENCH_COLD_ROWS: no row ${unknown.join(', ')} (rows: ${all.join(', ')})`);
  return all.filter((id) => only.includes(id));
}

interface Floor {
  readonly bundle: string;
  readonly event: string;
  /** The calls, as the table shows them: "GetItem, TransactWriteItems ×3". */
  readonly makes: string;
  /** send-otp's rows: the same floor, then one message through the channel's SDK client (a reference). */
  readonly withClient?: { readonly bundle: string; readonly api: 'SendEmail' | 'Publish' };
}

/**
 * Each row's floor: its last event (`probe`) is answered in this process while its DynamoDB calls are
 * recorded, and the floor makes the same calls (cold-events.ts, floorCalls) from a bundle holding only
 * the commands they need. The probe event is used for nothing else.
 */
async function floorsOf(bench: Bench, rows: readonly string[], probes: (id: string) => string) {
  const floors = new Map<string, Floor>();
  for (const id of rows) {
    const event = JSON.parse(readFileSync(probes(id), 'utf8'));
    const recorder = recordCallInputs(bench.context.db);
    const answer = await bench
      .invoke(routeOf(id), event.path, JSON.parse(event.body), event.headers)
      .finally(recorder.stop);
    if (answer.status >= 400) throw new Error(`${id}: the probe answered ${answer.status}`);
    const calls = floorCalls(recorder.calls);
    const file = join(bench.work, `floor-${id.replaceAll(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ floorCalls: calls }));
    const makes = calls.map(({ command, input }) => {
      const name = apiName(command);
      const items = (input.TransactItems as unknown[] | undefined)?.length;
      return items ? `${name} ×${items}` : name;
    });
    const channel = routeOf(id) === 'send-otp' ? (id.includes('SMS') ? 'SMS' : 'EMAIL') : undefined;
    floors.set(id, {
      bundle: await bench.floorBundle(calls.map((call) => call.command)),
      event: file,
      makes: makes.join(', ') || 'none',
      ...(channel && {
        withClient: {
          bundle: await bench.floorBundle(
            calls.map((call) => call.command),
            channel,
          ),
          api: channel === 'SMS' ? 'Publish' : 'SendEmail',
        },
      }),
    });
  }
  return floors;
}

export async function coldStart(bench: Bench): Promise<Section> {
  const { log } = bench;
  const bundles = await bench.bundles();
  const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
  const rows = routeRows();
  // One event per round, one for cachegrind, one for the probe that records the route's calls.
  log(`preparing ${COLD_RUNS + 2} first-invocation events per function`);
  const eventFiles = await prepareEvents(bench, COLD_RUNS + 2, 'p1');
  const eventsOf = (id: string) => eventFiles.get(id) ?? [];
  const floors = await floorsOf(bench, rows, (id) => eventsOf(id)[COLD_RUNS + 1] ?? '');
  const bareEvent = join(bench.work, 'bare.json');
  writeFileSync(bareEvent, '{}');

  const referenceBundles: Record<string, string> = {
    bare: bundles.bare,
    [OLD_FLOOR]: bundles.ddbFloor,
    [NOISE]: bundles.ddbFloor,
  };
  const floorId = (id: string) => `floor of ${id}`;
  /** send-otp's reference rows (its floor plus the channel's client): reference id → the row's id. */
  const clientFloors = new Map<string, string>();
  for (const id of rows) {
    const api = floors.get(id)?.withClient?.api;
    if (api) clientFloors.set(`${id}: own floor + ${api === 'Publish' ? 'SNS' : 'SES'} client`, id);
  }
  const clientFloorOf = (id: string) => [...clientFloors].find(([, row]) => row === id)?.[0];
  const coldIds = [
    ...Object.keys(referenceBundles),
    ...rows.flatMap((id) => [
      id,
      floorId(id),
      ...[...clientFloors].filter(([, row]) => row === id).map(([reference]) => reference),
    ]),
  ];
  const target = new Map<string, { bundle: string; event: (round: number) => string }>();
  for (const [id, bundle] of Object.entries(referenceBundles))
    target.set(id, { bundle, event: () => bareEvent });
  for (const id of rows) {
    const floor = floors.get(id);
    if (!floor) throw new Error(`no floor for ${id}`);
    target.set(id, {
      bundle: bundles.routes.get(routeOf(id)) ?? '',
      event: (round) => eventsOf(id)[round] ?? '',
    });
    target.set(floorId(id), { bundle: floor.bundle, event: () => floor.event });
    const clientFloor = clientFloorOf(id);
    if (clientFloor && floor.withClient)
      target.set(clientFloor, { bundle: floor.withClient.bundle, event: () => floor.event });
  }

  const { cold, instructions, hasValgrind } = await withColdEnv(bench, async (env) => {
    log(
      `cold starts: ${COLD_RUNS} rounds, every function, floor and reference once per round, in a shuffled order`,
    );
    const cold = new Map<string, ColdRun[]>(coldIds.map((id) => [id, []]));
    for (let round = 0; round < COLD_RUNS; round++)
      for (const id of shuffled(coldIds, round + 1)) {
        const { bundle, event } = target.get(id) ?? { bundle: '', event: () => '' };
        cold.get(id)?.push(await coldStartOnce(env, bundle, event(round)));
      }
    // A cold start that answered an error measured the wrong path: that is a broken benchmark, not a figure.
    for (const [id, runs] of cold) {
      const bad = runs.filter((r) => r.status >= 400);
      if (id !== 'bare' && bad.length)
        throw new Error(`${id} answered ${bad.map((r) => r.status).join(',')} in ${bad.length} cold runs`);
    }
    const instructions = new Map<string, number>();
    const hasValgrind = await run('valgrind', ['--version']).then(
      () => process.env.BENCH_CACHEGRIND !== '0',
      () => false,
    );
    if (hasValgrind) {
      log('instructions of one cold run per function and floor (cachegrind)');
      for (const id of coldIds) {
        const { bundle, event } = target.get(id) ?? { bundle: '', event: () => '' };
        instructions.set(id, await instructionsOf(env, bundle, event(COLD_RUNS)));
      }
    }
    return { cold, instructions, hasValgrind };
  });

  const processMedian = (id: string) => median((cold.get(id) ?? []).map((r) => r.processMs));
  const instr = (id: string) => instructions.get(id) ?? Number.NaN;
  const misses: string[] = [];
  const noiseTime = processMedian(NOISE) / processMedian(OLD_FLOOR);
  const noiseInstr = instr(NOISE) / instr(OLD_FLOOR);
  const rowOf = (id: string) => {
    const runs = cold.get(id) ?? [];
    const row = clientFloors.get(id);
    const base = id === NOISE ? OLD_FLOOR : floorId(row ?? id);
    const timeRatio = processMedian(id) / processMedian(base);
    const instrRatio = instr(id) / instr(base);
    const met = timeRatio <= COLD_GOAL && (!hasValgrind || instrRatio <= INSTR_GOAL);
    if (floors.has(id) && !row && !met) misses.push(id);
    const isReference = id in referenceBundles;
    const withClient = row && floors.get(row)?.withClient;
    return [
      id,
      withClient
        ? `${floors.get(row)?.makes}, ${withClient.api}`
        : (floors.get(id)?.makes ?? (id === 'bare' ? 'none' : 'GetItem')),
      round(processMedian(id), 1),
      round(
        percentile(
          runs.map((r) => r.processMs),
          90,
        ),
        1,
      ),
      round(median(runs.map((r) => r.importMs)), 1),
      round(median(runs.map((r) => r.invokeMs)), 1),
      isReference && id !== NOISE ? '' : round(processMedian(base), 1),
      isReference && id !== NOISE ? '' : round(timeRatio, 2),
      ...(hasValgrind
        ? [
            round(instr(id) / 1e6, 1),
            isReference && id !== NOISE ? '' : round(instr(base) / 1e6, 1),
            isReference && id !== NOISE ? '' : round(instrRatio, 2),
          ]
        : []),
      round(processMedian(id) / processMedian(OLD_FLOOR), 2),
      id === NOISE ? 'noise' : isReference || row ? 'reference' : verdict(met),
    ];
  };
  return {
    title: 'P1 cold start',
    lines: [
      `Each function bundled as the stack bundles it, started in a fresh Node ${process.versions.node} process: spawn → import → first invocation → answer. The init path is the deployed one: the signing key is read through shared/auth/signing-keys.ts from Secrets Manager and send-otp sends through the SES or SNS client, all answered by a local stand-in in their wire formats; DynamoDB is DynamoDB Local; access logging is on at info. ${COLD_RUNS} round${COLD_RUNS === 1 ? '' : 's'}, each running every bundle once in a shuffled order; every first invocation answers 2xx (a webhook is created for a literal public address, so no DNS lookup is made).`,
      '',
      `**Each row's own floor** is a bundle holding only the DynamoDB document client (shared/db/client.ts, the same esbuild settings), reading the signing key through the same module as the functions (whatever it does in this run), and making on its first invocation the DynamoDB calls the route made on the same kind of event, recorded in this run ("DynamoDB calls"): the reads as they were (the same items, so the same answers), the writes of the same kind, count and size on the floor's own copies of the items and without conditions, so that every round repeats them. Goal: process median ≤ ${COLD_GOAL}× the row's own floor${hasValgrind ? ` and instructions ≤ ${INSTR_GOAL}× its floor's (cachegrind, one run each)` : ''}. "× old floor" is the old single floor, a bundle holding only the DynamoDB client making one GetItem and reading no key (${round(processMedian(OLD_FLOOR), 1)} ms${hasValgrind ? `, ${round(instr(OLD_FLOOR) / 1e6, 1)} M instructions` : ''}), kept for reference. **Noise:** the old floor's bundle measured again as a second row of every round: ${round(noiseTime, 3)}× in process time${hasValgrind ? `, ${round(noiseInstr, 3)}× in instructions` : ''}; a ratio that close to its goal is within the noise.`,
      '',
      table(
        [
          'function',
          'DynamoDB calls',
          'process median ms',
          'process p90 ms',
          'import ms',
          'first invocation ms',
          'own floor ms',
          '× own floor',
          ...(hasValgrind ? ['instructions (M)', 'own floor instr. (M)', 'instr. × own floor'] : []),
          '× old floor',
          'goal',
        ],
        coldIds.filter((id) => !id.startsWith('floor of ')).map(rowOf),
      ),
      '',
      `Bare handler: ${round(processMedian('bare'), 1)} ms per process, of which Node itself is nearly all. ${misses.length ? `Missed: ${misses.join(', ')}.` : 'Every function meets both goals against its own floor.'}`,
      ...[...clientFloors].map(
        ([clientFloor, row]) =>
          `\n${row} against "${clientFloor}" (the same floor, then one message through the same SDK client, loaded as send-otp loads it): ${round(processMedian(row) / processMedian(clientFloor), 2)}× in time${hasValgrind ? `, ${round(instr(row) / instr(clientFloor), 2)}× in instructions` : ''}.`,
      ),
    ],
  };
}

/** Instructions of one cold run (cachegrind). */
async function instructionsOf(env: NodeJS.ProcessEnv, bundle: string, event: string): Promise<number> {
  const { stderr } = await run(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      join(root, 'test/bench/harness.mjs'),
      bundle,
      event,
    ],
    { env, maxBuffer: 1 << 24 },
  );
  return Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1]?.replaceAll(',', '') ?? Number.NaN);
}
