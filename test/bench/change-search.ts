/**
 * Change-search (issue 41): a change-search of a booked trip against a search of the same journeys as
 * they would be (the changed journey on its new day, the others on theirs), through the handlers against
 * DynamoDB Local, interleaved in one run so both meet the same load. Two trips: one way (LHR-JFK) and
 * three journeys (LHR-JFK-LAX-LHR) with the middle one changed. Business class: every fare allows changes.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { exampleTraveller } from '../../shared/bookings/example-traveller.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { median, percentile, ratio, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const WARM_UP = 20;
const SAMPLES = 200;
const GOAL = 1.5;

type Journey = { origin: string; destination: string; departure_date: string };

/** Books the first offer of `journeys` (one way, or multi-city) and answers its booking id. */
async function bookTrip(bench: Bench, auth: Record<string, string>, journeys: Journey[]): Promise<string> {
  const trip = journeys.length === 1 ? journeys[0] : { slices: journeys };
  const found = await bench.invoke(
    'search',
    bench.pathOf('search'),
    { ...trip, travel_class: 'BUSINESS' },
    auth,
  );
  const offer = found.body.data?.[0];
  if (!offer) throw new Error(`no offer for ${JSON.stringify(journeys)}`);
  const body = {
    flight_id: offer.id,
    flight_details: offer,
    total_price: offer.total_price,
    currency: offer.currency,
    ...exampleTraveller,
  };
  const made = await bench.invoke('booking-create', bench.pathOf('booking-create'), body, auth);
  if (made.status !== 201) throw new Error(`booking answered ${made.status}`);
  return made.body.data.booking_id;
}

/** One trip's two calls, timed alternately: change-search of journey `index`, and search of the trip as changed. */
async function measure(bench: Bench, auth: Record<string, string>, journeys: Journey[], index: number) {
  const bookingId = await bookTrip(bench, auth, journeys);
  const moved = journeys.map((j, i) =>
    i === index ? { ...j, departure_date: addDays(j.departure_date, 1) } : j,
  );
  const calls = {
    search: () =>
      bench.invoke(
        'search',
        bench.pathOf('search'),
        { ...(moved.length === 1 ? moved[0] : { slices: moved }), travel_class: 'BUSINESS', limit: 50 },
        auth,
      ),
    'change-search': () =>
      bench.invoke(
        'booking-change-search',
        bench.pathOf('booking-change-search'),
        {
          booking_id: bookingId,
          journeys: [{ index, departure_date: moved[index]?.departure_date }],
          limit: 50,
        },
        auth,
      ),
  };
  const samples: Record<keyof typeof calls, number[]> = { search: [], 'change-search': [] };
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    for (const kind of Object.keys(calls) as (keyof typeof calls)[]) {
      const started = performance.now();
      const answer = await calls[kind]();
      const took = performance.now() - started;
      if (answer.status !== 200)
        throw new Error(`${kind} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (i >= WARM_UP) samples[kind].push(took);
    }
  }
  return samples;
}

export async function changeSearch(bench: Bench): Promise<Section> {
  const start = addDays(new Date().toISOString().slice(0, 10), 30);
  const auth = await bench.bearer(await bench.newAgent('change-search'));
  const trips = {
    'one way LHR-JFK': { journeys: [{ origin: 'LHR', destination: 'JFK', departure_date: start }], index: 0 },
    '3 journeys LHR-JFK-LAX-LHR, the 2nd changed': {
      journeys: [
        { origin: 'LHR', destination: 'JFK', departure_date: start },
        { origin: 'JFK', destination: 'LAX', departure_date: addDays(start, 3) },
        { origin: 'LAX', destination: 'LHR', departure_date: addDays(start, 6) },
      ],
      index: 1,
    },
  };
  const rows: (string | number)[][] = [];
  let met = true;
  for (const [name, trip] of Object.entries(trips)) {
    const samples = await measure(bench, auth, trip.journeys, trip.index);
    const times = ratio(median(samples['change-search']), median(samples.search));
    met &&= median(samples['change-search']) <= GOAL * median(samples.search);
    for (const kind of ['search', 'change-search'] as const)
      rows.push([
        name,
        kind,
        round(median(samples[kind]), 2),
        round(percentile(samples[kind], 99), 2),
        kind === 'search' ? 1 : times,
      ]);
  }
  return {
    title: 'Change-search against a search of the same journeys',
    lines: [
      `Through the handlers against DynamoDB Local, ${SAMPLES} of each after ${WARM_UP} of warm-up, interleaved: change-search of one journey of a booked trip (moved one day) against a search of the trip as it would be (that journey on its new day, the others on theirs), business class, limit 50, sort PRICE. Change-search searches the changed journey only and keeps the others as booked; it also reads the booking (one GetItem) that search does not.`,
      `Load average (1 min) as the section was written: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs.`,
      '',
      table(['trip', 'call', 'p50 ms', 'p99 ms', 'p50 × search'], rows),
      '',
      `Goal ≤ ${GOAL}× the search at p50: ${verdict(met)}.`,
    ],
  };
}
