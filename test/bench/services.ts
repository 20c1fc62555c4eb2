/**
 * Offer services (issue 42): `offer/services` for a one-way LHR-JFK offer against the one-way search
 * that issued it, through the handlers against DynamoDB Local, interleaved in one run so both meet the
 * same load. Services answers a Boeing 787-9's whole seat map (288 seats) and the bags.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { addDays } from '../../shared/flights/local-time.ts';
import { median, percentile, ratio, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const WARM_UP = 20;
const SAMPLES = 200;

export async function offerServices(bench: Bench): Promise<Section> {
  const body = {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: addDays(new Date().toISOString().slice(0, 10), 20),
    limit: 50,
  };
  const auth = await bench.bearer(await bench.newAgent('offer-services'));
  const samples: Record<'one-way search' | 'offer/services', number[]> = {
    'one-way search': [],
    'offer/services': [],
  };
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    let started = performance.now();
    const found = await bench.invoke('search', bench.pathOf('search'), body, auth);
    const searched = performance.now() - started;
    const offer = found.body?.data?.[0];
    if (found.status !== 200 || !offer) throw new Error(`search answered ${found.status}`);
    started = performance.now();
    const answer = await bench.invoke(
      'offer-services',
      bench.pathOf('offer-services'),
      { flight_id: offer.id },
      auth,
    );
    const served = performance.now() - started;
    if (answer.status !== 200) throw new Error(`offer/services answered ${answer.status}`);
    if (i >= WARM_UP) {
      samples['one-way search'].push(searched);
      samples['offer/services'].push(served);
    }
  }
  const oneWay = samples['one-way search'];
  const rows = (Object.keys(samples) as (keyof typeof samples)[]).map((kind) => [
    kind,
    round(median(samples[kind]), 2),
    round(percentile(samples[kind], 99), 2),
    ratio(median(samples[kind]), median(oneWay)),
  ]);
  return {
    title: 'Offer services against one-way search',
    lines: [
      `Through the handlers against DynamoDB Local, ${SAMPLES} of each after ${WARM_UP} of warm-up, interleaved: a one-way LHR-JFK search (limit 50), then offer/services for its first offer (a 787-9: every cabin's seat map, 288 seats, one consistent BatchGetItem for the flight-date's chosen seats and one GetItem for the offer's booked marker, in parallel).`,
      `Load average (1 min) as the section was written: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs.`,
      '',
      table(['route', 'p50 ms', 'p99 ms', 'p50 × one-way search'], rows),
      '',
      `Goal p50 ≤ one-way search's: ${verdict(median(samples['offer/services']) <= median(oneWay))}.`,
    ],
  };
}
