import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/** 1 December 2026, 09:00 UTC. */
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const HOUR = 3_600_000;

let session: TestSession;

beforeEach(async () => {
  freezeClock(NOW);
  session = await signIn({ agencyId: 'multi-citizens' });
});

afterEach(() => {
  vi.restoreAllMocks();
  context.db.middlewareStack.remove('countCalls');
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Flight = any;

const journey = (origin: string, destination: string, departure_date: string) => ({
  origin,
  destination,
  departure_date,
});
/** London, New York, Los Angeles, London. */
const THREE = [
  journey('LHR', 'JFK', '2026-12-10'),
  journey('JFK', 'LAX', '2026-12-13'),
  journey('LAX', 'LHR', '2026-12-17'),
];
const SIX = [
  journey('LHR', 'JFK', '2026-12-10'),
  journey('JFK', 'LAX', '2026-12-12'),
  journey('LAX', 'SFO', '2026-12-14'),
  journey('SFO', 'ORD', '2026-12-16'),
  journey('ORD', 'BOS', '2026-12-18'),
  journey('BOS', 'LHR', '2026-12-20'),
];

const searchFor = (body: Record<string, unknown>) =>
  invoke(search, { path: '/api/flights/search', body, headers: session.headers });

const first = (slice: Flight) => slice.segments[0];
const last = (slice: Flight) => slice.segments.at(-1);
const minutes = (f: Flight) => f.slices.reduce((n: number, s: Flight) => n + s.duration_minutes, 0);

/** What every multi-city offer promises (docs/API.md §4.1). */
function expectMultiCity(flight: Flight, journeys: typeof THREE) {
  expect(flight.slices).toHaveLength(journeys.length);
  expect(flight.outbound).toEqual(flight.slices[0]);
  expect(flight).not.toHaveProperty('inbound');
  journeys.forEach((j, i) => {
    const slice = flight.slices[i];
    expect(first(slice).origin).toBe(j.origin);
    expect(last(slice).destination).toBe(j.destination);
    if (i > 0)
      expect(Date.parse(first(slice).departure_at)).toBeGreaterThanOrEqual(
        Date.parse(last(flight.slices[i - 1]).arrival_at) + 2 * HOUR,
      );
  });
}

describe('fn: search, multi-city', () => {
  it('combines three journeys, one batch read per journey at most, cheapest first', async () => {
    const calls = recordDynamoCalls(context.db, 'countCalls').calls;

    const answer = await searchFor({ slices: THREE, limit: 20 });

    expect(answer.status).toBe(200);
    const flights: Flight[] = answer.body.data;
    expect(flights).toHaveLength(20);
    for (const flight of flights) expectMultiCity(flight, THREE);
    const prices = flights.map((f) => f.total_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // The session's GetItem, then the inventory: at most one BatchGetItem per journey.
    expect(calls.filter((c) => c === 'BatchGetItemCommand').length).toBeLessThanOrEqual(3);
    expect(calls.filter((c) => c !== 'BatchGetItemCommand')).toEqual(['GetItemCommand']);
  });

  it('sorts six journeys by duration and by departure journey by journey', async () => {
    const byDuration: Flight[] = (await searchFor({ slices: SIX, sort: 'DURATION', limit: 15 })).body.data;
    const byDeparture: Flight[] = (await searchFor({ slices: SIX, sort: 'DEPARTURE', limit: 15 })).body.data;

    expect(byDuration).toHaveLength(15);
    for (const flight of [...byDuration, ...byDeparture]) expectMultiCity(flight, SIX);
    const durations = byDuration.map(minutes);
    expect(durations).toEqual([...durations].sort((a, b) => a - b));
    const departures = byDeparture.map((f) => f.slices.map((s: Flight) => first(s).departure_at).join('|'));
    expect(departures).toEqual([...departures].sort());
  });

  it('answers one-way and round-trip flights with slices: the same objects as outbound and inbound', async () => {
    const [oneWay] = (await searchFor({ ...THREE[0], limit: 1 })).body.data;
    const [roundTrip] = (await searchFor({ ...THREE[0], return_date: '2026-12-17', limit: 1 })).body.data;

    expect(oneWay.slices).toEqual([oneWay.outbound]);
    expect(roundTrip.slices).toEqual([roundTrip.outbound, roundTrip.inbound]);
  });

  it('keeps two hours between journeys on one day (London to Paris, Paris to Amsterdam)', async () => {
    const slices = [journey('LHR', 'CDG', '2026-12-10'), journey('CDG', 'AMS', '2026-12-10')];

    const flights: Flight[] = (await searchFor({ slices, limit: 100 })).body.data;

    expect(flights.length).toBeGreaterThan(0);
    for (const flight of flights) expectMultiCity(flight, slices);
  });

  it.each([
    [
      'slices with origin',
      { slices: THREE, origin: 'LHR' },
      [['origin', 'must be left out when slices are given']],
    ],
    [
      'slices with return_date',
      { slices: THREE, return_date: '2026-12-20' },
      [['return_date', 'must be left out when slices are given']],
    ],
    ['one journey', { slices: THREE.slice(0, 1) }, [['slices', 'must list 2 to 6 journeys']]],
    [
      'seven journeys',
      { slices: [...SIX, journey('LHR', 'CDG', '2026-12-21')] },
      [['slices', 'must list 2 to 6 journeys']],
    ],
    [
      'journeys out of date order',
      { slices: [...THREE.slice(0, 2), journey('LAX', 'LHR', '2026-12-12')] },
      [['slices.2.departure_date', "must not be before the previous journey's departure_date (2026-12-13)"]],
    ],
    [
      'a journey repeating the previous one on the same day',
      { slices: [THREE[0], THREE[0]] },
      [['slices.1', 'repeats the previous journey: the same origin and destination on the same day']],
    ],
    [
      'a journey to where it starts',
      { slices: [THREE[0], journey('JFK', 'JFK', '2026-12-13')] },
      [['slices.1.destination', 'must differ from origin']],
    ],
    [
      'a journey yesterday',
      { slices: [journey('LHR', 'JFK', '2026-11-30'), THREE[1]] },
      [['slices.0.departure_date', 'must not be before today at the origin (2026-12-01)']],
    ],
    [
      'a journey 331 days ahead',
      { slices: [THREE[0], journey('JFK', 'LAX', '2027-10-28')] },
      [['slices.1.departure_date', 'must be at most 330 days ahead (2027-10-27)']],
    ],
    [
      'an unknown airport',
      { slices: [THREE[0], journey('JFK', 'QQQ', '2026-12-13')] },
      [['slices.1.destination', 'is not a known airport']],
    ],
    [
      'neither slices nor origin',
      { destination: 'JFK', departure_date: '2026-12-10' },
      [['origin', 'is required']],
    ],
  ])('refuses %s on the exact path', async (_case, body, expected) => {
    const answer = await searchFor(body);

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(
      answer.body.error.details.map((d: { path: string; message: string }) => [d.path, d.message]),
    ).toEqual(expected);
  });
});
