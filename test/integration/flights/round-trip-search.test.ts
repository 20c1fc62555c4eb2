import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import { testTable } from '#test/helpers/agents.ts';
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
  session = await signIn({ agencyId: 'round-trippers' });
});

afterEach(() => {
  vi.restoreAllMocks();
  context.db.middlewareStack.remove('countCalls');
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Flight = any;

const searchFor = (body: Record<string, unknown>) =>
  invoke(search, {
    path: '/api/flights/search',
    body: {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: '2026-12-10',
      return_date: '2026-12-17',
      ...body,
    },
    headers: session.headers,
  });

const localDate = (zone: string, iso: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(Date.parse(iso));
const first = (direction: Flight) => direction.segments[0];
const last = (direction: Flight) => direction.segments.at(-1);
const numbers = (direction: Flight) => direction.segments.map((s: Flight) => s.flight_number).join(' ');

/** Checks what every round-trip offer promises (docs/API.md §4.1). */
function expectRoundTrip(flight: Flight, from: string, to: string, returnDate: string, zone: string) {
  expect(first(flight.outbound).origin).toBe(from);
  expect(last(flight.outbound).destination).toBe(to);
  expect(first(flight.inbound).origin).toBe(to);
  expect(last(flight.inbound).destination).toBe(from);
  expect(localDate(zone, first(flight.inbound).departure_at)).toBe(returnDate);
  expect(
    Date.parse(first(flight.inbound).departure_at) - Date.parse(last(flight.outbound).arrival_at),
  ).toBeGreaterThanOrEqual(2 * HOUR);
  expect(flight.inbound).toEqual({
    duration_minutes: expect.any(Number),
    stops: flight.inbound.segments.length - 1,
    segments: expect.any(Array),
    conditions: expect.any(Object),
    baggage: expect.any(Array),
    fare_brand: expect.any(String),
  });
}

describe('fn: search, round trips', () => {
  it('pairs outbound and inbound on a route with direct flights both ways, in one GetItem and at most two batch reads', async () => {
    const calls = recordDynamoCalls(context.db, 'countCalls').calls;

    const answer = await searchFor({ max_connections: 1, limit: 100 });

    expect(answer.status).toBe(200);
    const flights: Flight[] = answer.body.data;
    expect(flights).toHaveLength(100);
    expect(answer.body.meta).toEqual({ count: 100, currency: 'EUR' });
    for (const flight of flights) expectRoundTrip(flight, 'LHR', 'JFK', '2026-12-17', 'America/New_York');
    expect(calls[0]).toBe('GetItemCommand');
    expect(calls.slice(1).every((c) => c === 'BatchGetItemCommand')).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('pairs one-stop itineraries on a route without direct flights (Paris to Sydney and back)', async () => {
    const answer = await searchFor({ origin: 'CDG', destination: 'SYD', limit: 20 });

    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const flight of answer.body.data) {
      expectRoundTrip(flight, 'CDG', 'SYD', '2026-12-17', 'Australia/Sydney');
      expect([flight.outbound.stops, flight.inbound.stops]).toEqual([1, 1]);
    }
  });

  it('keeps to direct flights both ways with max_connections 0', async () => {
    const answer = await searchFor({ max_connections: 0, limit: 100 });

    expect(answer.body.data.length).toBeGreaterThan(50);
    for (const flight of answer.body.data)
      expect([flight.outbound.stops, flight.inbound.stops]).toEqual([0, 0]);
  });

  it('answers a one-way search exactly as before: no inbound key', async () => {
    const answer = await searchFor({ return_date: undefined, limit: 5 });

    expect(answer.body.data).toHaveLength(5);
    for (const flight of answer.body.data) expect(Object.keys(flight)).not.toContain('inbound');
  });

  it('sorts by total price, by both ways’ duration, or by outbound then inbound departure; limit counts pairs', async () => {
    const byPrice = await searchFor({ sort: 'PRICE', limit: 30 });
    const byDuration = await searchFor({ sort: 'DURATION', limit: 30 });
    const byDeparture = await searchFor({ sort: 'DEPARTURE', limit: 30 });
    const nonDecreasing = (values: number[][]) =>
      values.every(
        (v, i) =>
          i === 0 ||
          (values[i - 1] as number[]).join() <= v.join() ||
          compare(values[i - 1] as number[], v) <= 0,
      );
    const compare = (a: number[], b: number[]) => {
      for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
      return 0;
    };
    const dep = (direction: Flight) => Date.parse(first(direction).departure_at);

    expect(byPrice.body.data).toHaveLength(30);
    expect(nonDecreasing(byPrice.body.data.map((f: Flight) => [f.total_price]))).toBe(true);
    expect(
      nonDecreasing(
        byDuration.body.data.map((f: Flight) => [f.outbound.duration_minutes + f.inbound.duration_minutes]),
      ),
    ).toBe(true);
    expect(nonDecreasing(byDeparture.body.data.map((f: Flight) => [dep(f.outbound), dep(f.inbound)]))).toBe(
      true,
    );
  });

  it('offers a same-day return only where the timings allow (London to Paris and back on one day)', async () => {
    const answer = await searchFor({ destination: 'CDG', return_date: '2026-12-10', limit: 100 });

    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const flight of answer.body.data)
      expectRoundTrip(flight, 'LHR', 'CDG', '2026-12-10', 'Europe/Paris');
    const earliestBack = Math.min(
      ...answer.body.data.map((f: Flight) => Date.parse(first(f.inbound).departure_at)),
    );
    const earliestLanding = Math.min(
      ...answer.body.data.map((f: Flight) => Date.parse(last(f.outbound).arrival_at)),
    );
    expect(earliestBack).toBeGreaterThanOrEqual(earliestLanding + 2 * HOUR);
  });

  it('keeps local days right when either date is a DST change (US on 14 March, Europe on 28 March 2027)', async () => {
    const answer = await searchFor({ departure_date: '2027-03-14', return_date: '2027-03-28', limit: 40 });
    const back = await searchFor({
      origin: 'JFK',
      destination: 'LHR',
      departure_date: '2027-03-14',
      return_date: '2027-03-28',
      limit: 40,
    });

    for (const flight of answer.body.data) {
      expect(localDate('Europe/London', first(flight.outbound).departure_at)).toBe('2027-03-14');
      expectRoundTrip(flight, 'LHR', 'JFK', '2027-03-28', 'America/New_York');
    }
    for (const flight of back.body.data) {
      expect(localDate('America/New_York', first(flight.outbound).departure_at)).toBe('2027-03-14');
      expectRoundTrip(flight, 'JFK', 'LHR', '2027-03-28', 'Europe/London');
    }
    expect(answer.body.data.length).toBeGreaterThan(0);
    expect(back.body.data.length).toBeGreaterThan(0);
  });

  it.each([
    ['before departure_date', '2026-12-09', 'must not be before departure_date'],
    ['beyond 330 days', '2027-10-28', 'must be at most 330 days ahead (2027-10-27)'],
    ['not a calendar date', '2026-12-32', 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time'],
    ['a number', 20261217, expect.any(String)],
  ])('refuses a return_date %s with 400 on the field', async (_case, returnDate, message) => {
    const answer = await searchFor({ return_date: returnDate });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: 'return_date', message }]);
  });

  it('accepts a return_date on day 330 and a date-time whose date part is used', async () => {
    const last = await searchFor({ return_date: '2027-10-27', limit: 1 });
    const dateTime = await searchFor({ return_date: '2026-12-17T23:00:00-05:00', limit: 1 });

    expect([last.status, dateTime.status]).toEqual([200, 200]);
    expect(localDate('America/New_York', first(dateTime.body.data[0].inbound).departure_at)).toBe(
      '2026-12-17',
    );
  });

  it('property: a round trip costs the sum of its two directions, each priced alone, whatever has sold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('2026-12-20', '2026-12-27'),
            fc.integer({ min: 0, max: 14 }),
            fc.integer({ min: 0, max: 200 }),
          ),
          {
            maxLength: 6,
          },
        ),
        fc.integer({ min: 1, max: 4 }),
        async (sales, adults) => {
          const outs = (
            await searchFor({
              departure_date: '2026-12-20',
              return_date: undefined,
              max_connections: 0,
              limit: 100,
            })
          ).body.data as Flight[];
          const backsBefore = (
            await searchFor({
              origin: 'JFK',
              destination: 'LHR',
              departure_date: '2026-12-27',
              return_date: undefined,
              max_connections: 0,
              limit: 100,
            })
          ).body.data as Flight[];
          for (const [date, index, sold] of sales) {
            const list = date === '2026-12-20' ? outs : backsBefore;
            const flight = list[index % Math.max(1, list.length)];
            if (!flight) continue;
            await testTable.db.send(
              new PutCommand({
                TableName: testTable.tableName,
                Item: { ...inventoryKey(first(flight.outbound).flight_number, date), sold_Y: sold },
              }),
            );
          }
          const oneWay = async (body: Record<string, unknown>) =>
            new Map(
              (
                (await searchFor({ ...body, return_date: undefined, adults, max_connections: 0, limit: 100 }))
                  .body.data as Flight[]
              ).map((f) => [numbers(f.outbound), Math.round(f.total_price * 100)]),
            );
          const [there, back] = await Promise.all([
            oneWay({ departure_date: '2026-12-20' }),
            oneWay({ origin: 'JFK', destination: 'LHR', departure_date: '2026-12-27' }),
          ]);
          const trips = (
            await searchFor({
              departure_date: '2026-12-20',
              return_date: '2026-12-27',
              adults,
              max_connections: 0,
              limit: 100,
            })
          ).body.data as Flight[];

          expect(trips.length).toBeGreaterThan(0);
          for (const trip of trips) {
            const sum =
              (there.get(numbers(trip.outbound)) ?? Number.NaN) +
              (back.get(numbers(trip.inbound)) ?? Number.NaN);
            expect(Math.round(trip.total_price * 100)).toBe(sum);
          }
        },
      ),
      { seed: 17, numRuns: 8 },
    );
  });
});
