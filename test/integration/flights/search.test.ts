import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import { openOffer } from '#shared/flights/offers.ts';
import { departureTax } from '#shared/flights/taxes.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/** 1 December 2026, 09:00 UTC: every search below happens then. */
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const DATE = '2026-12-02';

let session: TestSession;
let advance: (ms: number) => void;

beforeEach(async () => {
  advance = freezeClock(NOW);
  session = await signIn({ agencyId: 'acme-travel' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const searchFor = (body: Record<string, unknown>, headers = session.headers) =>
  invoke(search, {
    path: '/api/flights/search',
    body: { origin: 'LHR', destination: 'JFK', departure_date: DATE, ...body },
    headers,
  });

async function sell(flightNumber: string, date: string, seats: number, cabin = 'Y') {
  await testTable.db.send(
    new PutCommand({
      TableName: testTable.tableName,
      Item: { ...inventoryKey(flightNumber, date), [`sold_${cabin}`]: seats },
    }),
  );
}

/** Records the name of every DynamoDB command the functions send (removed after each test). */
const countDynamoCalls = () => recordDynamoCalls(context.db, 'countCalls').calls;

afterEach(() => {
  context.db.middlewareStack.remove('countCalls');
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Flight = any;
const direct = (flights: Flight[]) => flights.filter((f) => f.outbound.stops === 0);
const numbers = (flight: Flight) => flight.outbound.segments.map((s: Flight) => s.flight_number).join(' ');

describe('fn: search', () => {
  it('finds direct and one-stop offers from London to New York with real airlines, UTC times and prices', async () => {
    const answer = await searchFor({ adults: 1 });

    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ count: answer.body.data.length, currency: 'EUR' });
    const flights: Flight[] = answer.body.data;
    expect(direct(flights).length).toBe(14);
    expect(flights.some((f) => f.outbound.stops === 1)).toBe(true);
    const carriers = new Set(flights.flatMap((f) => f.outbound.segments.map((s: Flight) => s.carrier_name)));
    expect(carriers).toContain('British Airways');
    expect(carriers).toContain('Virgin Atlantic');
    for (const flight of flights) {
      expect(flight).toEqual({
        id: expect.stringMatching(/^off_[A-Za-z0-9_-]+$/),
        total_price: expect.any(Number),
        currency: 'EUR',
        travel_class: 'ECONOMY',
        seats_available: 9,
        expires_at: '2026-12-01T09:20:00Z',
        passengers: { adults: 1, children: 0, infants: 0 },
        outbound: {
          duration_minutes: expect.any(Number),
          stops: expect.any(Number),
          segments: expect.any(Array),
          conditions: flight.conditions,
          baggage: [{ pax_type: 'ADULT', carry_on: 1, checked: 0 }],
          fare_brand: 'Economy Light',
        },
        slices: [flight.outbound],
        // Nothing sold yet: every offer is in the cheapest bucket, which allows neither.
        conditions: {
          refund_before_departure: { allowed: false, penalty: null },
          change_before_departure: { allowed: false, penalty: null },
        },
        // Each departure's taxes (LHR 80 €, a connection's airport its own), the rest the fare.
        price_breakdown: [
          {
            pax_type: 'ADULT',
            count: 1,
            base: expect.any(Number),
            taxes: flight.outbound.segments.reduce(
              (sum: number, s: Flight) => sum + departureTax(s.origin) / 100,
              0,
            ),
            total: flight.total_price,
          },
        ],
      });
      const [row] = flight.price_breakdown;
      expect(Math.round(row.base * 100) + Math.round(row.taxes * 100)).toBe(
        Math.round(flight.total_price * 100),
      );
      expect(Math.round(flight.total_price * 100)).toBe(flight.total_price * 100);
      const segments = flight.outbound.segments;
      expect(segments[0].origin).toBe('LHR');
      expect(segments.at(-1).destination).toBe('JFK');
      for (const segment of segments) {
        expect(segment.departure_at).toMatch(/^2026-12-0[23]T\d{2}:\d{2}:00Z$/);
        expect(Date.parse(segment.arrival_at) - Date.parse(segment.departure_at)).toBe(
          segment.duration_minutes * 60_000,
        );
        expect(segment.flight_number.startsWith(segment.carrier_code)).toBe(true);
      }
    }
    const prices = flights.map((f) => f.total_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('raises the price of a flight as its seats sell', async () => {
    const before = direct((await searchFor({ max_connections: 0 })).body.data);
    const target = before[0];
    const [segment] = target.outbound.segments;

    await sell(segment.flight_number, DATE, 100);
    const after = direct((await searchFor({ max_connections: 0 })).body.data).find(
      (f) => numbers(f) === numbers(target),
    );

    expect(after.total_price).toBeGreaterThan(target.total_price);
  });

  it('drops a sold-out flight and every connection that uses it', async () => {
    const before = (await searchFor({})).body.data as Flight[];
    const target = direct(before)[0];
    const flightNumber = target.outbound.segments[0].flight_number;

    await sell(flightNumber, DATE, 210);
    const after = (await searchFor({})).body.data as Flight[];

    expect(after.some((f) => numbers(f).split(' ').includes(flightNumber))).toBe(false);
    expect(after.length).toBeGreaterThan(0);
  });

  it('shows the seats left on the fullest segment, capped at 9', async () => {
    const target = direct((await searchFor({ max_connections: 0 })).body.data)[0];
    await sell(target.outbound.segments[0].flight_number, DATE, 207);

    const after = direct((await searchFor({ max_connections: 0, sort: 'DEPARTURE', limit: 100 })).body.data);

    expect(after.find((f) => numbers(f) === numbers(target)).seats_available).toBe(3);
    expect(after.filter((f) => numbers(f) !== numbers(target)).every((f) => f.seats_available === 9)).toBe(
      true,
    );
  });

  it('hides a flight that cannot seat the whole party', async () => {
    const target = direct((await searchFor({ max_connections: 0 })).body.data)[0];
    await sell(target.outbound.segments[0].flight_number, DATE, 207);

    const forFour = direct(
      (await searchFor({ max_connections: 0, adults: 2, children: 2, limit: 100 })).body.data,
    );

    expect(forFour.some((f) => numbers(f) === numbers(target))).toBe(false);
  });

  it('prices children at 75% of the adult fare and lap infants at the taxes only', async () => {
    const [adult] = direct((await searchFor({ max_connections: 0, sort: 'DEPARTURE' })).body.data);
    const [family] = direct(
      (await searchFor({ max_connections: 0, sort: 'DEPARTURE', adults: 2, children: 1, infants: 1 })).body
        .data,
    );

    expect(numbers(family)).toBe(numbers(adult));
    expect(family.passengers).toEqual({ adults: 2, children: 1, infants: 1 });
    // One adult's row: fare and taxes; every passenger pays the taxes, infants nothing else.
    const [{ base, taxes }] = adult.price_breakdown;
    expect(family.total_price).toBeCloseTo(base * (2 + 0.75) + taxes * 4, 2);
    expect(family.price_breakdown).toEqual([
      { pax_type: 'ADULT', count: 2, base: 2 * base, taxes: 2 * taxes, total: 2 * (base + taxes) },
      { pax_type: 'CHILD', count: 1, base: base * 0.75, taxes, total: base * 0.75 + taxes },
      { pax_type: 'INFANT', count: 1, base: 0, taxes, total: taxes },
    ]);
  });

  it('seals each offer for the caller’s agency, valid for 20 minutes', async () => {
    const [offer] = (await searchFor({})).body.data;

    const quote = openOffer(context.keys.offer, offer.id);
    // One character of the sealed bytes changed, in the middle where every bit carries data (an id that
    // ended in "BA" once came back from the old end-of-id tamper unchanged).
    const middle = Math.floor(offer.id.length / 2);
    const tampered = `${offer.id.slice(0, middle)}${offer.id[middle] === 'A' ? 'B' : 'A'}${offer.id.slice(middle + 1)}`;

    expect(quote).toMatchObject({
      agencyId: 'acme-travel',
      expiresAt: NOW / 1000 + 20 * 60,
      travelClass: 'ECONOMY',
      total: Math.round(offer.total_price * 100),
      currency: 'EUR',
    });
    expect(quote?.segments.map((s) => s.flightNumber).join(' ')).toBe(numbers(offer));
    expect(openOffer(context.keys.offer, tampered)).toBeUndefined();
  });

  it('gives every offer a different id, even for the same flight searched twice', async () => {
    const first = (await searchFor({})).body.data.map((f: Flight) => f.id);
    const second = (await searchFor({})).body.data.map((f: Flight) => f.id);

    expect(new Set([...first, ...second]).size).toBe(first.length + second.length);
  });

  it('costs 2 DynamoDB round trips direct-only and at most 4 with connections, auth included', async () => {
    const calls = countDynamoCalls();

    await searchFor({ max_connections: 0 });
    const directCalls = calls.splice(0);
    await searchFor({ max_connections: 1, limit: 100 });
    const connectionCalls = calls.splice(0);
    await searchFor({ origin: 'LHR', destination: 'SYD', limit: 100 });
    const longHaulCalls = calls.splice(0);

    expect(directCalls).toEqual(['GetItemCommand', 'BatchGetItemCommand']);
    expect(connectionCalls.length).toBeLessThanOrEqual(4);
    expect(longHaulCalls.length).toBeLessThanOrEqual(4);
    expect(connectionCalls[0]).toBe('GetItemCommand');
  });

  it('answers an empty list, reading no inventory, when nothing flies', async () => {
    const calls = countDynamoCalls();

    const answer = await searchFor({ origin: 'AAA', destination: 'AAB' });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, data: [], meta: { count: 0, currency: 'EUR' } });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it('offers no first class where only two-cabin aircraft fly', async () => {
    const answer = await searchFor({ origin: 'LHR', destination: 'CDG', travel_class: 'FIRST' });

    expect(answer.body.data).toEqual([]);
  });

  it('sorts by duration or departure and cuts to the limit', async () => {
    const byDuration = (await searchFor({ sort: 'DURATION', limit: 5 })).body.data as Flight[];
    const byDeparture = (await searchFor({ sort: 'DEPARTURE', limit: 7 })).body.data as Flight[];

    expect(byDuration).toHaveLength(5);
    expect(byDuration.map((f) => f.outbound.duration_minutes)).toEqual(
      [...byDuration.map((f) => f.outbound.duration_minutes)].sort((a, b) => a - b),
    );
    expect(byDeparture).toHaveLength(7);
    const departures = byDeparture.map((f) => f.outbound.segments[0].departure_at);
    expect(departures).toEqual([...departures].sort());
  });

  it('accepts an ISO date-time and uses its date part as the local day at the origin', async () => {
    const answer = await searchFor({ departure_date: `${DATE}T23:30:00Z`, max_connections: 0 });

    expect(answer.status).toBe(200);
    expect(answer.body.data[0].outbound.segments[0].departure_at.startsWith(DATE)).toBe(true);
  });

  it('judges "today" at the origin: in Sydney it is already tomorrow', async () => {
    // 09:00 UTC on 1 December is 20:00 on 1 December in Sydney (UTC+11) and 01:00 in Los Angeles.
    advance(5 * 3_600_000); // 14:00 UTC: 01:00 on 2 December in Sydney, 06:00 on 1 December in Los Angeles.
    session = await signIn();
    const fromSydney = await searchFor({ origin: 'SYD', destination: 'MEL', departure_date: '2026-12-01' });
    const fromLosAngeles = await searchFor({
      origin: 'LAX',
      destination: 'SFO',
      departure_date: '2026-12-01',
    });

    expect(fromSydney.status).toBe(400);
    expect(fromSydney.body.error.details).toEqual([
      { path: 'departure_date', message: 'must not be before today at the origin (2026-12-02)' },
    ]);
    expect(fromLosAngeles.status).toBe(200);
  });

  it('offers no flight leaving within the hour', async () => {
    const today = (await searchFor({ departure_date: '2026-12-01', max_connections: 0, limit: 100 })).body
      .data as Flight[];

    for (const flight of today) {
      expect(Date.parse(flight.outbound.segments[0].departure_at)).toBeGreaterThanOrEqual(NOW + 3_600_000);
    }
  });

  it('requires a session', async () => {
    const answer = await searchFor({}, { Authorization: 'Bearer nope' });

    expect(answer.status).toBe(401);
  });

  it.each([
    ['no origin', { origin: undefined }, [['origin', 'is required']]],
    [
      'a lower-case code',
      { origin: 'lhr' },
      [['origin', 'must be a 3-letter IATA airport code in capitals, e.g. LHR']],
    ],
    ['an unknown airport', { destination: 'QQQ' }, [['destination', 'is not a known airport']]],
    ['the same airport twice', { destination: 'LHR' }, [['destination', 'must differ from origin']]],
    [
      'a malformed date',
      { departure_date: '02/12/2026' },
      [['departure_date', 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time']],
    ],
    [
      'an impossible date',
      { departure_date: '2026-02-30' },
      [['departure_date', 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time']],
    ],
    [
      'yesterday',
      { departure_date: '2026-11-30' },
      [['departure_date', 'must not be before today at the origin (2026-12-01)']],
    ],
    [
      '331 days ahead',
      { departure_date: '2027-10-28' },
      [['departure_date', 'must be at most 330 days ahead (2027-10-27)']],
    ],
    ['no adult', { adults: 0 }, [['adults', 'must be between 1 and 9']]],
    ['ten adults', { adults: 10 }, [['adults', 'must be between 1 and 9']]],
    ['half an adult', { adults: 1.5 }, [['adults', 'must be a whole number']]],
    [
      'ten seats',
      { adults: 5, children: 5 },
      [['children', 'adults and children together must be at most 9']],
    ],
    [
      'more infants than adults',
      { adults: 1, infants: 2 },
      [['infants', 'must not exceed adults: each infant travels on an adult’s lap']],
    ],
    ['an unknown class', { travel_class: 'LUXURY' }, [['travel_class', expect.stringContaining('ECONOMY')]]],
    ['two connections', { max_connections: 2 }, [['max_connections', 'must be 0 or 1']]],
    ['an unknown sort', { sort: 'CHEAPEST' }, [['sort', expect.stringContaining('PRICE')]]],
    ['a limit of 101', { limit: 101 }, [['limit', 'must be between 1 and 100']]],
  ])('refuses %s with one detail per problem', async (_case, body, expected) => {
    const answer = await searchFor(body);

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(
      answer.body.error.details.map((d: { path: string; message: string }) => [d.path, d.message]),
    ).toEqual(expected);
  });

  it('reports all problems at once', async () => {
    const answer = await searchFor({ origin: 'XX', departure_date: 'soon', adults: 0, limit: 0 });

    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'origin',
      'departure_date',
      'adults',
      'limit',
    ]);
  });
});
