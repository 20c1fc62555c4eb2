/**
 * Memory sizing: every function's cold start and warm requests with the CPU share Lambda gives each
 * memory size (1,769 MB = one vCPU, in proportion below), then the cost per request at each size and the
 * size chosen per function: the cheapest within the latency targets.
 *
 * The share is enforced as Lambda does, by a CFS quota: each size's processes run in their own cgroup
 * (v1, /sys/fs/cgroup/cpu) with cpu.cfs_period_us = 100000 and cpu.cfs_quota_us = share × period, pinned
 * to one CPU (`taskset`). When the cgroup cannot be made, a duty-cycle limiter (duty-cycle.mjs) stops and
 * continues the process instead (SIGSTOP/SIGCONT), and the section says so. Knobs: BENCH_MEMORY_RUNS
 * (cold starts per function and size, 6: the slowest of 3 put logout under 1 s at 256 MB in one run of
 * three, and 6 showed 1.2-1.3 s), BENCH_MEMORY_WARM (warm requests after each, 5), and
 * BENCH_COLD_ROWS (only those functions).
 */

import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { routes } from '../../shared/routes.ts';
import { prepareEvents } from './cold-events.ts';
import { type ColdRun, coldStartOnce, routeRows, withColdEnv } from './cold-start.ts';
import { median, round, type Section, shuffled, table } from './lib.ts';
import { type Bench, root } from './setup.ts';

/** Memory sizes measured, MB. */
const SIZES = [256, 512, 1024, 1769] as const;
/** Lambda's CPU share at `mb`: one vCPU at 1,769 MB, in proportion below. */
const shareOf = (mb: number) => Math.min(1, mb / 1769);
const PERIOD_US = 100_000;
/** Between warm requests: two quota periods, so each starts with its period's quota unspent. */
const WARM_GAP_MS = 200;

/**
 * Lambda's price, arm64, US East (N. Virginia), first tier, from aws.amazon.com/lambda/pricing as of
 * 2026-11: $0.0000133334 per GB-second, billed per 1 ms, and $0.20 per million requests. Since
 * 2025-08-01 the INIT phase is billed like the invocation (AWS Compute Blog, "AWS Lambda standardizes
 * billing for INIT phase"), so a cold request pays for its init too.
 */
const PRICE = {
  gbSecond: 0.000_013_333_4,
  request: 0.2 / 1e6,
  source: 'aws.amazon.com/lambda/pricing, 2026-11',
};
/** The share of requests that start cold, for the blended cost: AWS's own figure, "under 1%". */
const COLD_FRACTION = 0.01;
/** Latency targets a size must meet: cold start (process start → first answer) and warm p50. */
const TARGET = { coldMs: 1000, warmMs: 100 } as const;

/** Cost of one request billed for `ms` at `mb`, in US dollars. */
const costOf = (ms: number, mb: number) =>
  Math.ceil(ms) * (mb / 1024) * (PRICE.gbSecond / 1000) + PRICE.request;

interface Limiter {
  readonly kind: string;
  /** The command a process of size `mb` runs through. */
  wrap(mb: number): string[];
  close(): void;
}

/** One cgroup per size, quota = share × period, on the last CPU; null when cgroups are not writable. */
function cgroupLimiter(cpu: number): Limiter | null {
  const base = '/sys/fs/cgroup/cpu';
  const dirs = new Map<number, string>();
  try {
    for (const mb of SIZES) {
      const dir = join(base, `flight-bench-${process.pid}-${mb}`);
      mkdirSync(dir);
      dirs.set(mb, dir);
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(shareOf(mb) * PERIOD_US)));
    }
  } catch {
    for (const dir of dirs.values()) rmdirSync(dir);
    return null;
  }
  return {
    kind: `a cgroup (v1) per size with cpu.cfs_period_us = ${PERIOD_US} and cpu.cfs_quota_us = share × period, pinned to CPU ${cpu} by taskset`,
    // The shell joins the cgroup, then becomes taskset, then Node: nothing of Node runs outside it.
    wrap: (mb) => [
      'sh',
      '-c',
      'echo $$ > "$1" && shift && exec "$@"',
      'sh',
      join(dirs.get(mb) ?? '', 'cgroup.procs'),
      'taskset',
      '-c',
      String(cpu),
    ],
    close: () => {
      for (const dir of dirs.values()) rmdirSync(dir);
    },
  };
}

/** SIGSTOP/SIGCONT in 20 ms periods: running share × 20 ms of each. */
function dutyCycleLimiter(cpu: number): Limiter {
  return {
    kind: `a duty-cycle limiter (cgroups were not writable): SIGCONT for share × 20 ms, SIGSTOP for the rest of every 20 ms, pinned to CPU ${cpu} by taskset`,
    wrap: (mb) => [
      process.execPath,
      join(root, 'test/bench/duty-cycle.mjs'),
      String(shareOf(mb)),
      'taskset',
      '-c',
      String(cpu),
    ],
    close: () => {},
  };
}

export async function memory(bench: Bench): Promise<Section> {
  const { log } = bench;
  const bundles = await bench.bundles();
  const RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 6);
  const WARM = Number(process.env.BENCH_MEMORY_WARM ?? 5);
  const functions = routeRows().filter((id) => routes.some((route) => route.id === id));
  const perRun = 1 + WARM;
  log(`memory sizing: preparing ${RUNS * SIZES.length * perRun} events per function`);
  const events = await prepareEvents(bench, RUNS * SIZES.length * perRun, 'memory');
  const cpu = cpus().length - 1;
  const limiter = cgroupLimiter(cpu) ?? dutyCycleLimiter(cpu);
  log(`memory sizing through ${limiter.kind}`);
  const runs = new Map<string, ColdRun[]>();
  try {
    await withColdEnv(bench, async (env) => {
      const childEnv = { ...env, BENCH_WARM_GAP_MS: String(WARM_GAP_MS) };
      for (let round = 0; round < RUNS; round++) {
        const cases = functions.flatMap((id) => SIZES.map((mb, size) => ({ id, mb, size })));
        for (const { id, mb, size } of shuffled(cases, round + 1)) {
          // Each case's own events, the first for the cold start and the rest warm.
          const slot = round * SIZES.length + size;
          const own = (events.get(id) ?? []).slice(slot * perRun, (slot + 1) * perRun);
          const [cold = '', ...warm] = own;
          const result = await coldStartOnce(childEnv, bundles.routes.get(id) ?? '', cold, {
            wrap: limiter.wrap(mb),
            warmEvents: warm,
          });
          const bad = [result.status, ...result.warm.map((w) => w.status)].filter((status) => status >= 400);
          if (bad.length) throw new Error(`${id} at ${mb} MB answered ${bad.join(',')}`);
          const key = `${id}@${mb}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
        }
      }
    });
  } finally {
    limiter.close();
  }
  return report(functions, runs, limiter.kind, RUNS, WARM);
}

/** The memory table, every function at every size, and the size chosen per function. */
function report(
  functions: readonly string[],
  runs: ReadonlyMap<string, readonly ColdRun[]>,
  kind: string,
  RUNS: number,
  WARM: number,
): Section {
  const rows: (string | number)[][] = [];
  const chosen: (string | number)[][] = [];
  for (const id of functions) {
    const sizes = SIZES.map((mb) => {
      const measured = runs.get(`${id}@${mb}`) ?? [];
      const coldMs = median(measured.map((r) => r.totalMs));
      const slowestMs = Math.max(...measured.map((r) => r.totalMs));
      const warmMs = median(measured.flatMap((r) => r.warm.map((w) => w.ms)));
      const cold = costOf(coldMs, mb);
      const warm = costOf(warmMs, mb);
      const blended = COLD_FRACTION * cold + (1 - COLD_FRACTION) * warm;
      const rss = Math.max(...measured.map((r) => r.maxRssMb));
      const meets = slowestMs <= TARGET.coldMs && warmMs <= TARGET.warmMs && rss < mb;
      return { mb, coldMs, slowestMs, warmMs, cold, warm, blended, rss, meets };
    });
    const within = sizes.filter((s) => s.meets);
    const best = within.length
      ? within.reduce((a, b) => (b.blended < a.blended ? b : a))
      : sizes.reduce((a, b) => (b.coldMs < a.coldMs ? b : a));
    const perMillion = (dollars: number) => round(dollars * 1e6, 3);
    for (const s of sizes)
      rows.push([
        id,
        s.mb,
        round(shareOf(s.mb), 3),
        round(s.coldMs, 0),
        round(s.slowestMs, 0),
        round(s.warmMs, 1),
        round(s.rss, 0),
        perMillion(s.cold),
        perMillion(s.warm),
        perMillion(s.blended),
        s.meets ? 'met' : '**missed**',
        s === best ? '**chosen**' : '',
      ]);
    const at512 = sizes.find((s) => s.mb === 512);
    chosen.push([
      id,
      best.mb,
      within.length ? 'cheapest within the targets' : '**no size meets the targets**: the fastest cold start',
      round(best.coldMs, 0),
      round(best.warmMs, 1),
      perMillion(best.blended),
      at512 ? round(best.blended / at512.blended, 3) : '',
    ]);
  }
  return {
    title: 'Memory sizing',
    lines: [
      `Lambda gives a function CPU in proportion to its memory: one vCPU at 1,769 MB, so ${SIZES.map((mb) => `${mb} MB ≈ ${round(shareOf(mb), 3)}`).join(', ')} of a vCPU. Each function's bundle was cold-started ${RUNS} time${RUNS === 1 ? '' : 's'} at each size (the P1 events and init path; sizes and functions in a shuffled order), each followed by ${WARM} warm requests ${WARM_GAP_MS} ms apart, with the CPU share enforced by ${kind}. "cold ms" is process start → first answer (median), timed inside the process; "warm p50" the median of the warm requests. DynamoDB Local and the AWS stand-in run outside the limit, as AWS's services do; Lambda's own init (sandbox, runtime bootstrap, code download) and TLS are not in these figures, and memory is not limited (max RSS is shown: a size must exceed it).`,
      '',
      `Cost per request: billed duration (rounded up to 1 ms) × memory at $${PRICE.gbSecond} per GB-second plus $${round(PRICE.request * 1e6, 2)} per million requests (Lambda arm64, US East, first tier; ${PRICE.source}). A cold request is billed for its init too (INIT billed since 2025-08-01). Blended: ${COLD_FRACTION * 100}% of requests cold (AWS: cold starts are "under 1%" of invocations). **Targets:** every cold start measured ≤ ${TARGET.coldMs} ms (the slowest, not the median, so that a size is not chosen by one lucky run; a sign-in, search or booking waiting on a new instance should answer within a second of our own code, before Lambda's init and TLS are added), warm p50 ≤ ${TARGET.warmMs} ms, and the peak RSS below the size. The chosen size is the one with the lowest blended cost among those meeting the targets. Functions no route invokes (events, deliveries, sweep) are not measured here.`,
      '',
      table(
        [
          'function',
          'MB',
          'vCPU',
          'cold ms',
          'slowest cold ms',
          'warm p50 ms',
          'max RSS MB',
          'cold $/M req',
          'warm $/M req',
          'blended $/M req',
          'targets',
          '',
        ],
        rows,
      ),
      '',
      'Chosen sizes (the route table takes them: shared/routes.ts `memoryMb`, FUNCTION_DEFAULTS in shared/function-spec.ts):',
      '',
      table(
        ['function', 'memory MB', 'why', 'cold ms', 'warm p50 ms', 'blended $/M req', '× cost at 512 MB'],
        chosen,
      ),
    ],
  };
}
