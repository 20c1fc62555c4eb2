/**
 * P1b cold start to a refusal: each authenticated route's bundle, started in a fresh Node process and
 * invoked once without credentials, so that it answers 401 before any I/O of its own; against the
 * floor, a bundle holding only the DynamoDB client and reading the signing key (floor.ts, making no
 * call). What it shows is what each function's code costs to load: module evaluation (schemas, tables,
 * clients built at import) and its init, not its DynamoDB calls (P1). Instructions, by cachegrind, less
 * `detail::sprp` (a routine of Node's start whose count varies by up to 10 M between runs of one bundle).
 * Airport search is measured as both stages bundle it: the network's served airports and Duffel's every
 * IATA airport.
 */

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { supplierConditions } from '../../infra/bundling.ts';
import { type Route, routes } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import { round, type Section, table, verdict } from './lib.ts';
import { type Bench, bundle, root } from './setup.ts';

const run = promisify(execFile);
const GOAL = 1.15;

/** Instructions of one cold run to the first answer, less `detail::sprp`; and the answer's status. */
async function instructionsOf(env: NodeJS.ProcessEnv, bundlePath: string, event: string) {
  const out = `${bundlePath}.cachegrind`;
  const harness = join(root, 'test/bench/harness.mjs');
  const { stdout, stderr } = await run(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      `--cachegrind-out-file=${out}`,
      process.execPath,
      harness,
      bundlePath,
      event,
    ],
    { env, maxBuffer: 1 << 24 },
  );
  const total = Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1]?.replaceAll(',', '') ?? Number.NaN);
  const { stdout: annotated } = await run('cg_annotate', [out], { maxBuffer: 1 << 26 });
  const sprp = annotated
    .split('\n')
    .filter((line) => line.includes('sprp'))
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0]?.replaceAll(',', '')), 0);
  const status = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}').status as number;
  return { instructions: total - sprp, status };
}

/** Every row: its bundle and the event it gets (the floor's makes no call; a route's has no token). */
async function rowsOf(bench: Bench): Promise<[string, string, string][]> {
  const bundles = await bench.bundles();
  const floorEvent = join(bench.work, 'refusal-floor.json');
  writeFileSync(floorEvent, JSON.stringify({ floorCalls: [] }));
  const rows: [string, string, string][] = [['floor', await bench.floorBundle([]), floorEvent]];
  for (const route of (routes as readonly Route[]).filter((r) => r.auth)) {
    const event = join(bench.work, `refusal-${route.id}.json`);
    writeFileSync(event, JSON.stringify(apiEvent({ path: route.path, body: {} })));
    rows.push([route.id, bundles.routes.get(route.id) ?? '', event]);
    if (route.grants.includes('supplier-catalog')) {
      const duffel = join(bench.work, 'bundles', `${route.id}-duffel`);
      rows.push([
        `${route.id} (Duffel stage)`,
        await bundle(duffel, { file: route.entry }, supplierConditions('duffel')),
        event,
      ]);
    }
  }
  return rows;
}

export async function coldRefusal(bench: Bench): Promise<Section> {
  const env = { ...process.env, ...bench.functionEnv, LOG_LEVEL: 'info', NODE_OPTIONS: '' };
  const measured = new Map<string, number>();
  const lines: (string | number)[][] = [];
  for (const [id, bundlePath, event] of await rowsOf(bench)) {
    bench.log(`cold start to a refusal: ${id}`);
    const { instructions, status } = await instructionsOf(env, bundlePath, event);
    if (status !== (id === 'floor' ? 200 : 401)) throw new Error(`${id} answered ${status}`);
    measured.set(id, instructions);
    const ratio = instructions / (measured.get('floor') ?? Number.NaN);
    lines.push([
      id,
      round(instructions / 1e6, 1),
      id === 'floor' ? '' : round(ratio, 3),
      id === 'floor' ? 'floor' : verdict(ratio <= GOAL),
    ]);
  }
  return {
    title: 'P1b cold start to a refusal',
    lines: [
      `Each authenticated route's bundle (as the stack bundles it), started cold and invoked once without credentials: it answers 401 before any I/O of its own, so the figure is what its code costs to load and start. Floor: a bundle holding only the DynamoDB client and reading the signing key as every function does (floor.ts, no call). Instructions of one run each (cachegrind, less \`detail::sprp\`, whose count varies between runs of one bundle by up to 10 M). Goal: ≤ ${GOAL}× the floor.`,
      '',
      table(['function', 'instructions (M)', '× floor', 'goal'], lines),
    ],
  };
}
