/**
 * `npm run bench`: measures cold start, size, warm overhead, round trips, scale, contention and end-to-end
 * throughput, each against a baseline measured in the same run, and writes BENCHMARKS.md.
 * Not part of `npm test`. Needs Java 17+ (DynamoDB Local); uses valgrind when present.
 *
 * `npm run bench -- --only cold-start,calls` runs only the benchmarks named (in the order below, whatever
 * the order given) and prints their sections to stdout, progress to stderr; BENCHMARKS.md is not
 * touched. Alone, a benchmark runs in a fresher process than in the full run (README, Benchmarks).
 * Names: cold-start (P1), cold-refusal (P1b: cold start to a 401), size (P2), warm-overhead (P3), calls (P4), scale (P5), contention (P6),
 * throughput (P7), memory (memory sizing), airports (airport search lookups), console (the console's
 * budgets in Chromium), multi-city (6-journey search against one-way), change-search (change-search against a search of the same journeys), services (offer/services against one-way search), seat-map (a 777's seat map painted in Chromium). Knobs: BENCH_COLD_RUNS (P1 rounds, 15), BENCH_CACHEGRIND=0 (P1 without
 * cachegrind), BENCH_COLD_ROWS (P1 and memory: only these rows, comma-separated), SCALE_SAMPLES (P5
 * searches per table, 1000), BENCH_HTTP_SECONDS (P7 seconds per run, 8), BENCH_MEMORY_RUNS (cold starts
 * per function and size, 6), BENCH_MEMORY_WARM (warm requests after each, 5), BENCH_CONSOLE_RUNS
 * (console page loads, 15).
 *
 * Each benchmark is a module exporting one function that takes the shared setup (setup.ts) and returns
 * its section; lib.ts holds the pure helpers.
 */

import { parseArgs } from 'node:util';
import type { Section } from './lib.ts';
import { type Bench, startBench, writeReport } from './setup.ts';

/** Every benchmark, in the order they run and appear in BENCHMARKS.md. */
const benchmarks: readonly { name: string; load: () => Promise<(bench: Bench) => Promise<Section>> }[] = [
  { name: 'cold-start', load: async () => (await import('./cold-start.ts')).coldStart },
  { name: 'cold-refusal', load: async () => (await import('./cold-refusal.ts')).coldRefusal },
  { name: 'size', load: async () => (await import('./size.ts')).size },
  { name: 'warm-overhead', load: async () => (await import('./warm-overhead.ts')).warmOverhead },
  { name: 'calls', load: async () => (await import('./calls.ts')).calls },
  { name: 'scale', load: async () => (await import('./scale.ts')).scale },
  { name: 'contention', load: async () => (await import('./contention.ts')).contention },
  { name: 'throughput', load: async () => (await import('./throughput.ts')).throughput },
  { name: 'memory', load: async () => (await import('./memory.ts')).memory },
  { name: 'airports', load: async () => (await import('./airport-search.ts')).airportSearch },
  { name: 'console', load: async () => (await import('./console.ts')).consoleBudgets },
  { name: 'multi-city', load: async () => (await import('./multi-city.ts')).multiCity },
  { name: 'change-search', load: async () => (await import('./change-search.ts')).changeSearch },
  { name: 'services', load: async () => (await import('./services.ts')).offerServices },
  { name: 'seat-map', load: async () => (await import('./seat-map.ts')).seatMap },
];

const usage = `usage: npm run bench [-- --only NAME[,NAME…]]; names: ${benchmarks.map((b) => b.name).join(', ')}`;
function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n${usage}\n`);
  process.exit(2);
}
let only: string[] | undefined;
try {
  only = parseArgs({ options: { only: { type: 'string' } } })
    .values.only?.split(',')
    .map((name) => name.trim());
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const unknown = only?.filter((name) => !benchmarks.some((b) => b.name === name)) ?? [];
if (unknown.length) fail(`no benchmark named ${unknown.map((name) => `"${name}"`).join(', ')}`);
const selected = benchmarks.filter((b) => !only || only.includes(b.name));

const started = Date.now();
// With --only, stdout carries nothing but the sections.
const progress = only ? process.stderr : process.stdout;
const log = (message: string) =>
  progress.write(`[bench ${Math.round((Date.now() - started) / 1000)}s] ${message}\n`);

// Modules are loaded only once the setup has set the environment a function sees.
const bench = await startBench(log);
const sections: Section[] = [];
try {
  for (const benchmark of selected) {
    const section = await (await benchmark.load())(bench);
    sections.push(section);
    process.stdout.write(`\n## ${section.title}\n\n${section.lines.join('\n')}\n`);
  }
} finally {
  await bench.stop();
}
if (!only) {
  writeReport(sections, started);
  log('wrote BENCHMARKS.md');
}
process.exit(0);
