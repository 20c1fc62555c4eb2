import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inventoryKey, TAKEN_SEATS } from '#shared/flights/inventory-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, type Json, searchOffers, startBookingTest } from '#test/helpers/bookings.ts';
import { handler } from '#test/helpers/routes/flights/services.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

let session: TestSession;
let advance: (ms: number) => void;
let date: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
});

afterEach(() => {
  vi.restoreAllMocks();
});

const services = (flightId: unknown, as: TestSession = session) =>
  invoke(handler, {
    path: '/api/flights/offer/services',
    headers: as.headers,
    body: { flight_id: flightId },
  });

const seatsOf = (map: Json): Json[] =>
  map.cabins
    .flatMap((c: Json) => c.rows.flatMap((r: Json) => r.sections.flat()))
    .filter((e: Json) => e.type === 'seat');

describe('fn: offer-services', () => {
  it('answers a bag per passenger and journey and a seat map per segment, shaped as §4.10', async () => {
    const [offer] = await searchOffers(session, { departure_date: date, adults: 2, infants: 1 });

    const answer = await services(offer.id);

    expect(answer.status).toBe(200);
    const { bags, seat_maps } = answer.body.data;
    expect(bags).toEqual(
      [0, 1, 2].map((p) => ({
        id: `bag_0_${p}`,
        journey_index: 0,
        passenger_index: p,
        kind: 'checked',
        weight_kg: 23,
        price: { amount: 60, currency: 'EUR' },
        max_quantity: 3,
      })),
    );
    expect(seat_maps).toHaveLength(1);
    expect(seat_maps[0].segment_index).toBe(0);
    expect(seat_maps[0].cabins.map((c: Json) => c.cabin)).toEqual([
      'FIRST',
      'BUSINESS',
      'PREMIUM_ECONOMY',
      'ECONOMY',
    ]);
    const seats = seatsOf(seat_maps[0]);
    expect(seats).toHaveLength(288);
    expect(seats.find((s) => s.designator === '16A')).toEqual({
      type: 'seat',
      designator: '16A',
      available: true,
      price: { amount: 20, currency: 'EUR' },
      features: ['window'],
    });
    expect(seats.find((s) => s.designator === '3A')).toMatchObject({ available: false, price: null });
  });

  it('shows the seats chosen on the flight-date as taken', async () => {
    const [offer] = await searchOffers(session, { departure_date: date });
    const flightNumber = offer.outbound.segments[0].flight_number;
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: { ...inventoryKey(flightNumber, date), sold_Y: 2, [TAKEN_SEATS]: new Set(['16A', '28C']) },
      }),
    );

    const [map] = (await services(offer.id)).body.data.seat_maps;
    const economy = seatsOf({ cabins: map.cabins.filter((c: Json) => c.cabin === 'ECONOMY') });

    expect(economy.filter((s) => !s.available).map((s) => s.designator)).toEqual(['16A', '28C']);
  });

  it('returns 404 FLIGHT_NOT_FOUND for an offer never issued to the agency', async () => {
    const [offer] = await searchOffers(session, { departure_date: date });
    const other = await signIn({ agencyId: 'agency-other-services' });

    for (const [id, as] of [
      [offer.id, other],
      [`${offer.id}x`, session],
      ['off_nope', session],
    ] as const) {
      const answer = await services(id, as);
      expect(answer.status, id).toBe(404);
      expect(answer.body.error.code).toBe('FLIGHT_NOT_FOUND');
    }
  });

  it('returns 410 OFFER_EXPIRED for an expired or booked offer', async () => {
    const [first, second] = await searchOffers(session, { departure_date: date });
    expect((await book(session, bookingBody(first))).status).toBe(201);

    const booked = await services(first.id);
    advance(21 * 60_000);
    const expired = await services(second.id);

    for (const answer of [booked, expired]) {
      expect(answer.status).toBe(410);
      expect(answer.body.error.code).toBe('OFFER_EXPIRED');
    }
  });

  it('returns 400 VALIDATION_ERROR without a flight_id', async () => {
    const answer = await services(undefined);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].path).toBe('flight_id');
  });
});
