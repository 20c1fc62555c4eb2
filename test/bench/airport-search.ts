/**
 * Airport search (docs/API.md §4.7): how long one lookup takes once the index is built, for 1-, 2- and
 * 3-letter queries (what a person types into a departure field), against both stages' lists: the
 * network's served airports and Duffel's every IATA airport. Also what building the folded index costs
 * once per cold start, and one lookup through the handler (session read included) for scale.
 *
 * Queries: every letter; every two-letter pair; 1,500 three-letter strings drawn with a fixed seed (half
 * of them real IATA codes, so the exact-code path is measured too). Each is asked ROUNDS times in a
 * shuffled order after a warm-up; figures are per lookup.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { airportIndex, searchAirports } from '../../shared/flights/airport-search.ts';
import { sellableAirports } from '../../shared/supply/context.ts';
import { median, percentile, round, type Section, shuffled, table } from './lib.ts';
import type { Bench } from './setup.ts';

const ROUNDS = 5;
const SEED = 20_261_126;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const BUILDS = 20;

function queriesOf(codes: readonly string[]): Record<1 | 2 | 3, string[]> {
  const pairs = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));
  let state = SEED;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
  const triples = Array.from({ length: 1_500 }, (_, i) =>
    i % 2 === 0
      ? (codes[next(codes.length)] ?? 'lhr').toLowerCase()
      : [0, 1, 2].map(() => LETTERS[next(26)]).join(''),
  );
  return { 1: [...LETTERS], 2: pairs, 3: triples };
}

/** Microseconds per lookup of each query, ROUNDS times each, shuffled. */
function timeLookups(
  index: ReturnType<typeof airportIndex>,
  queries: readonly string[],
  limit: number,
): number[] {
  for (const query of queries) searchAirports(index, query, limit); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of shuffled(queries, SEED + round)) {
      const started = performance.now();
      searchAirports(index, query, limit);
      samples.push((performance.now() - started) * 1000);
    }
  }
  return samples;
}

export async function airportSearch(bench: Bench): Promise<Section> {
  const lines: string[] = [];
  const rows: (string | number)[][] = [];
  const builds: (string | number)[][] = [];
  for (const supplier of ['network', 'duffel'] as const) {
    const airports = await sellableAirports(supplier);
    const buildMs: number[] = [];
    let index = airportIndex(airports);
    for (let i = 0; i < BUILDS; i++) {
      const started = performance.now();
      index = airportIndex(await sellableAirports(supplier));
      buildMs.push(performance.now() - started);
    }
    builds.push([
      supplier,
      airports.length,
      round(Math.min(...buildMs), 1),
      round(median(buildMs), 1),
      round(Math.max(...buildMs), 1),
    ]);
    const queries = queriesOf(airports.map((a) => a.code));
    for (const length of [1, 2, 3] as const) {
      for (const limit of [10, 20]) {
        const samples = timeLookups(index, queries[length], limit);
        rows.push([
          supplier,
          airports.length,
          `${length} (${queries[length].length} queries)`,
          limit,
          round(median(samples), 1),
          round(percentile(samples, 99), 1),
          round(Math.max(...samples), 1),
        ]);
      }
    }
  }

  // One lookup through the route's handler (network stage): the session read dominates.
  const auth = await bench.bearer(await bench.newAgent('airports'));
  const through: number[] = [];
  for (let i = 0; i < 220; i++) {
    const started = performance.now();
    const answer = await bench.invoke(
      'airports-search',
      bench.pathOf('airports-search'),
      { query: LETTERS[i % 26] },
      auth,
    );
    if (answer.status !== 200) throw new Error(`airport search answered ${answer.status}`);
    if (i >= 20) through.push(performance.now() - started); // the first 20 warm up
  }

  lines.push(
    'One lookup (`searchAirports`) over the index a function folds once per cold start, in µs, by query length and `limit`. Every letter, every two-letter pair, and 1,500 three-letter strings (half real IATA codes), each asked 5 times in shuffled order after a warm-up.',
    `Load average (1 min) as the section was written: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs (a p99 or max far above p50 is the process being descheduled).`,
    '',
    table(['supplier', 'airports', 'query letters', 'limit', 'p50 µs', 'p99 µs', 'max µs'], rows),
    '',
    'Building the index (reading the bundled list, folding names and cities, sorting), once per cold start, in ms over 20 builds:',
    '',
    table(['supplier', 'airports', 'min ms', 'p50 ms', 'max ms'], builds),
    '',
    `Through the handler (network stage, bearer token, the one session GetItem against DynamoDB Local), 200 one-letter lookups after 20 of warm-up: p50 ${round(median(through), 2)} ms, p99 ${round(percentile(through, 99), 2)} ms.`,
  );
  return { title: 'Airport search lookups', lines };
}
