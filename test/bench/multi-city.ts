/**
 * Multi-city search (issue 33): a 6-journey search against a one-way search of its first journey,
 * through the search handler against DynamoDB Local, interleaved in one run so both meet the same load.
 * Then, in process, what the k-way frontier did for each sort: combinations examined (popped) and
 * pushed, against how many there were — nothing is built or allocated per combination, only per
 * candidate pushed (one index vector each).
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { PricedItinerary } from '../../shared/flights/flight-view.ts';
import { BATCH_GET_LIMIT } from '../../shared/flights/inventory-item.ts';
import { findItineraries } from '../../shared/flights/itineraries.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { priceItinerary } from '../../shared/flights/pricing.ts';
import { selectForPricing } from '../../shared/flights/ranking.ts';
import { bestCombinations } from '../../shared/flights/round-trips.ts';
import type { SortOrder } from '../../shared/flights/search-request.ts';
import { median, percentile, ratio, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const SORTS: SortOrder[] = ['PRICE', 'DURATION', 'DEPARTURE'];

const WARM_UP = 20;
const SAMPLES = 200;
const CITIES = ['LHR', 'JFK', 'LAX', 'SFO', 'ORD', 'BOS', 'LHR'];

export async function multiCity(bench: Bench): Promise<Section> {
  const start = addDays(new Date().toISOString().slice(0, 10), 20);
  const slices = CITIES.slice(1).map((destination, i) => ({
    origin: CITIES[i] as string,
    destination,
    departure_date: addDays(start, 2 * i),
  }));
  const bodies = {
    'one-way': { ...slices[0], limit: 50 },
    '6 journeys': { slices, limit: 50 },
  } as const;
  const auth = await bench.bearer(await bench.newAgent('multi-city'));
  const samples: Record<keyof typeof bodies, number[]> = { 'one-way': [], '6 journeys': [] };
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    for (const kind of Object.keys(bodies) as (keyof typeof bodies)[]) {
      const started = performance.now();
      const answer = await bench.invoke('search', bench.pathOf('search'), bodies[kind], auth);
      const took = performance.now() - started;
      if (answer.status !== 200) throw new Error(`${kind} search answered ${answer.status}`);
      if (i >= WARM_UP) samples[kind].push(took);
    }
  }
  const [oneWay, six] = [samples['one-way'], samples['6 journeys']];
  const rows = (Object.keys(samples) as (keyof typeof samples)[]).map((kind) => [
    kind,
    round(median(samples[kind]), 2),
    round(percentile(samples[kind], 99), 2),
    ratio(median(samples[kind]), median(oneWay)),
  ]);

  // The frontier alone, on the same journeys priced unsold: what it examined against what there was.
  const pax = { adults: 1, children: 0, infants: 0 };
  const journeys = slices.map((s) => {
    const chosen = selectForPricing(
      findItineraries(s.origin, s.destination, s.departure_date, { maxConnections: 1, earliestDeparture: 0 }),
      'PRICE',
      'ECONOMY',
      pax,
      // Each journey priced from one BatchGetItem's flight-dates at most, as search does.
      BATCH_GET_LIMIT,
    );
    return chosen.itineraries
      .map((it) => priceItinerary(it, 'ECONOMY', pax, new Map()))
      .filter((p): p is PricedItinerary => p !== undefined);
  });
  const counts = SORTS.flatMap((sort) =>
    [50, 100].map((limit) => {
      const started = performance.now();
      const { combinations, stats } = bestCombinations(journeys, sort, limit);
      const ms = performance.now() - started;
      return [
        sort,
        limit,
        combinations.length,
        stats.examined,
        stats.pushed,
        stats.combinations.toExponential(2),
        round(ms, 2),
      ];
    }),
  );

  return {
    title: 'Multi-city search (6 journeys) against one-way',
    lines: [
      `Search through the handler against DynamoDB Local, ${SAMPLES} of each after ${WARM_UP} of warm-up, interleaved: one-way ${CITIES[0]}-${CITIES[1]} against the 6 journeys ${CITIES.join('-')} two days apart (each journey priced from up to ${BATCH_GET_LIMIT} flight-dates, at most one BatchGetItem per journey: 3 for these 6), limit 50, sort PRICE.`,
      `Load average (1 min) as the section was written: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs.`,
      '',
      table(['search', 'p50 ms', 'p99 ms', 'p50 × one-way'], rows),
      '',
      `Goal ≤ 3× one-way at p50: ${verdict(median(six) <= 3 * median(oneWay))}.`,
      '',
      `The k-way frontier on these journeys (${journeys.map((j) => j.length).join(' × ')} itineraries, unsold): combinations taken, examined (popped), pushed (one index vector each, the only allocation per candidate), against every combination there is.`,
      '',
      table(['sort', 'limit', 'taken', 'examined', 'pushed', 'combinations', 'ms'], counts),
    ],
  };
}
