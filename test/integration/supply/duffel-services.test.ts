import { beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { duffelMode } from '#test/helpers/duffel.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/**
 * offer/services in duffel mode: the offer read again with `return_available_services=true` and its
 * seat maps from `/air/seat_maps`, from the stand-in over HTTP, answered in the contract's shape.
 */
const duffel = await duffelMode();

let session: TestSession;
beforeEach(async () => {
  freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  session = await signIn({ agencyId: `duffel-svc-${Math.random().toString(36).slice(2, 8)}` });
});

const offerFor = async (body: Record<string, unknown> = {}) => {
  const answer = await duffel.search(session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: '2027-01-20',
    ...body,
  });
  return answer.body.data[0] as Json;
};
const seatsOf = (map: Json): Json[] =>
  map.cabins
    .flatMap((c: Json) => c.rows.flatMap((r: Json) => r.sections.flat()))
    .filter((e: Json) => e.type === 'seat');

describe('duffel mode: offer services', () => {
  it('answers Duffel’s checked bags and seat maps in the contract’s shape', async () => {
    const offer = await offerFor({ adults: 1, infants: 1 });

    const answer = await duffel.services(session, { flight_id: offer.id });

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { bags, seat_maps } = answer.body.data;
    expect(bags).toHaveLength(2);
    expect(bags[0]).toEqual({
      id: expect.stringMatching(/^ase_bag_/),
      journey_index: 0,
      passenger_index: 0,
      kind: 'checked',
      weight_kg: 23,
      price: { amount: 35, currency: offer.currency },
      max_quantity: 2,
    });
    expect(seat_maps.map((m: Json) => m.segment_index)).toEqual(
      offer.outbound.segments.map((_: Json, i: number) => i),
    );
    const seats = seatsOf(seat_maps[0]);
    expect(seats).toHaveLength(30);
    expect(seats.find((s) => s.designator === '10A')).toEqual({
      type: 'seat',
      designator: '10A',
      available: false,
      price: null,
      features: ['window'],
    });
    expect(seats.find((s) => s.designator === '12C')).toEqual({
      type: 'seat',
      designator: '12C',
      available: true,
      price: { amount: 12, currency: offer.currency },
      features: ['aisle', 'exit_row', 'extra_legroom'],
    });
    const row12 = seat_maps[0].cabins[0].rows.find((r: Json) => r.number === 12);
    expect(row12.sections[0][0]).toEqual({ type: 'exit' });
    const asked = duffel.standIn.requests.map((r) => `${r.method} ${r.path}`);
    expect(
      asked.filter((l) => /^GET \/air\/offers\/off_\w+\?return_available_services=true$/.test(l)),
    ).toHaveLength(1);
    expect(asked.filter((l) => /^GET \/air\/seat_maps\?offer_id=off_\w+$/.test(l))).toHaveLength(1);
  });

  it('books a bag and a seat as services on the Duffel order, paid with the fare', async () => {
    const offer = await offerFor();
    const { bags } = (await duffel.services(session, { flight_id: offer.id })).body.data;

    const answer = await duffel.book(session, {
      ...bookingBody(offer),
      services: [{ id: bags[0].id, quantity: 2 }],
      seats: [{ segment_index: 0, passenger_index: 0, designator: '12C' }],
      total_price: Math.round((offer.total_price + 2 * 35 + 12) * 100) / 100,
    });

    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const booking = answer.body.data;
    expect(booking.services).toMatchObject([{ id: bags[0].id, quantity: 2, price: { amount: 35 } }]);
    expect(booking.passengers[0].seats).toMatchObject([{ segment_index: 0, designator: '12C' }]);
    const [order] = [...duffel.standIn.orders.values()].filter(
      (o) => o.metadata.booking_id === booking.booking_id,
    );
    expect(order?.services.map((s) => [s.type, s.quantity, s.total_amount])).toEqual([
      ['baggage', 2, '70.00'],
      ['seat', 1, '12.00'],
    ]);
    expect(order?.total_amount).toBe((offer.total_price + 82).toFixed(2));
    const sent: Json = duffel.standIn.requests.findLast(
      (r) => r.method === 'POST' && r.path === '/air/orders',
    );
    expect(sent.body.data.metadata.booking_id).toBe(booking.booking_id);
    expect(sent.body.data.services).toEqual([
      { id: bags[0].id, quantity: 2 },
      { id: expect.stringMatching(/^ase_seat_.*_12C_/), quantity: 1 },
    ]);
  });

  it('returns 409 SEAT_UNAVAILABLE, ordering nothing, when Duffel no longer sells the seat', async () => {
    const offer = await offerFor();
    const before = duffel.standIn.orders.size;

    const answer = await duffel.book(session, {
      ...bookingBody(offer),
      seats: [{ segment_index: 0, passenger_index: 0, designator: '10A' }],
      total_price: offer.total_price,
    });

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'SEAT_UNAVAILABLE',
      details: [{ path: 'seats.0.designator' }],
    });
    expect(duffel.standIn.orders.size).toBe(before);
  });
});
