import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { inventoryKey, TAKEN_SEATS } from '#shared/flights/inventory-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  inventoryItem,
  type Json,
  searchOffers,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as services } from '#test/helpers/routes/flights/services.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import type { TestSession } from '#test/helpers/session.ts';

let session: TestSession;
let date: string;
let advance: (ms: number) => void;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
});

const offerFor = async (body: Record<string, unknown> = {}) =>
  (await searchOffers(session, { departure_date: date, ...body }))[0] as Json;
const servicesOf = async (offer: Json) =>
  (await invoke(services, { headers: session.headers, body: { flight_id: offer.id } })).body.data;
const flightNumberOf = (offer: Json) => offer.outbound.segments[0].flight_number;
/** LHR–JFK is long-haul economy: a standard seat 20 €, a bag 60 € (docs/flights.md). */
const withExtras = (offer: Json, extras: { services?: Json[]; seats?: Json[] }, extra: number) => ({
  ...bookingBody(offer),
  ...extras,
  total_price: Math.round((offer.total_price + extra) * 100) / 100,
});

describe('fn: booking create with bags and seats', () => {
  it('books a seat and a bag: the total includes them, the booking lists them, the seat is taken', async () => {
    const offer = await offerFor({ adults: 2 });
    const { bags } = await servicesOf(offer);

    const answer = await book(
      session,
      withExtras(
        offer,
        {
          services: [{ id: bags[1].id, quantity: 2 }],
          seats: [{ segment_index: 0, passenger_index: 1, designator: '16A' }],
        },
        2 * 60 + 20,
      ),
    );

    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const booking = answer.body.data;
    expect(booking.total_price).toBe(Math.round((offer.total_price + 140) * 100) / 100);
    expect(booking.services).toEqual([
      {
        id: 'bag_0_1',
        journey_index: 0,
        passenger_index: 1,
        kind: 'checked',
        weight_kg: 23,
        quantity: 2,
        price: { amount: 60, currency: 'EUR' },
      },
    ]);
    expect(booking.passengers[0].seats).toBeUndefined();
    expect(booking.passengers[1].seats).toEqual([
      { segment_index: 0, designator: '16A', price: { amount: 20, currency: 'EUR' } },
    ]);
    const item = await inventoryItem(flightNumberOf(offer), date);
    expect(item).toMatchObject({ sold_Y: 2, [TAKEN_SEATS]: new Set(['16A']) });
    // The price breakdown gains their lines: the fare's rows, then the bags' and the seats'.
    expect(booking.price_breakdown).toEqual([
      ...offer.price_breakdown,
      { pax_type: 'ADULT', count: 2, base: 120, taxes: 0, total: 120, service: 'bags' },
      { pax_type: 'ADULT', count: 1, base: 20, taxes: 0, total: 20, service: 'seats' },
    ]);
    const rows = booking.price_breakdown.reduce((n: number, row: Json) => n + Math.round(row.total * 100), 0);
    expect(rows).toBe(Math.round(booking.total_price * 100));
  });

  it('returns 409 PRICE_CHANGED when total_price leaves out what the bags and seats cost', async () => {
    const offer = await offerFor();
    const answer = await book(session, {
      ...bookingBody(offer),
      seats: [{ segment_index: 0, passenger_index: 0, designator: '16A' }],
    });

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('PRICE_CHANGED');
    expect(answer.body.error.details).toMatchObject({
      previous_total_price: offer.total_price,
      total_price: Math.round((offer.total_price + 20) * 100) / 100,
    });
    expect(await inventoryItem(flightNumberOf(offer), date)).toBeUndefined();
  });

  it('returns 409 SEAT_UNAVAILABLE for a seat taken meanwhile, and books nothing', async () => {
    const seat = [{ segment_index: 0, passenger_index: 0, designator: '16A' }];
    const offer = await offerFor();
    const again = await offerFor();
    expect((await book(session, withExtras(offer, { seats: seat }, 20))).status).toBe(201);

    const answer = await book(session, withExtras(again, { seats: seat }, 20));

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'SEAT_UNAVAILABLE',
      details: [{ path: 'seats.0.designator', message: 'Seat 16A is no longer available' }],
    });
    expect(await inventoryItem(flightNumberOf(offer), date)).toMatchObject({ sold_Y: 1 });
  });

  it('returns 400 for a seat for an infant, an unknown bag or too many of one', async () => {
    const offer = await offerFor({ adults: 1, infants: 1 });
    const answer = await book(session, {
      ...withExtras(offer, {}, 0),
      services: [
        { id: 'bag_9_0', quantity: 1 },
        { id: 'bag_0_0', quantity: 4 },
      ],
      seats: [
        { segment_index: 0, passenger_index: 1, designator: '16A' },
        { segment_index: 0, passenger_index: 0, designator: '13A' },
        { segment_index: 3, passenger_index: 0, designator: '16A' },
      ],
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: Json) => d.path)).toEqual([
      'services.0.id',
      'services.1.quantity',
      'seats.0.passenger_index',
      'seats.1.designator',
      'seats.2.segment_index',
    ]);
  });

  it('gives the seats back on cancel, of a confirmed booking or a hold', async () => {
    for (const hold of [false, true]) {
      const offer = await offerFor({ adults: 1 });
      const seats = [{ segment_index: 0, passenger_index: 0, designator: '20C' }];
      const made = await book(session, { ...withExtras(offer, { seats }, 20), ...(hold && { hold: true }) });
      expect(made.body.data.status).toBe(hold ? 'HELD' : 'CONFIRMED');
      expect((await inventoryItem(flightNumberOf(offer), date))?.[TAKEN_SEATS]).toEqual(new Set(['20C']));

      const cancelled = await invoke(cancel, {
        headers: session.headers,
        body: { booking_id: made.body.data.booking_id },
      });

      expect(cancelled.status).toBe(200);
      const item = await inventoryItem(flightNumberOf(offer), date);
      expect(item?.sold_Y).toBe(0);
      expect(item?.[TAKEN_SEATS]).toBeUndefined();
    }
  });

  it('gives a hold’s seats back when it expires (the sweep)', async () => {
    const offer = await offerFor({ adults: 1 });
    const seats = [{ segment_index: 0, passenger_index: 0, designator: '21D' }];
    const held = await book(session, { ...withExtras(offer, { seats }, 20), hold: true });
    expect(held.body.data.status).toBe('HELD');

    advance(25 * 3_600_000);
    expect((await sweep()).expired).toBeGreaterThanOrEqual(1);

    const item = await inventoryItem(flightNumberOf(offer), date);
    expect(item?.sold_Y).toBe(0);
    expect(item?.[TAKEN_SEATS]).toBeUndefined();
  });

  it('sells each of the last 8 seats once when 100 bookings race for them', {
    timeout: 120_000,
  }, async () => {
    const first = await offerFor();
    const flightNumber = flightNumberOf(first);
    const map = await servicesOf(first);
    const economy: string[] = map.seat_maps[0].cabins
      .find((c: Json) => c.cabin === 'ECONOMY')
      .rows.flatMap((r: Json) => r.sections.flat())
      .filter((e: Json) => e.type === 'seat')
      .map((e: Json) => e.designator);
    const last = economy.slice(-8);
    const sold = economy.slice(0, -8);
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: { ...inventoryKey(flightNumber, date), sold_Y: sold.length, [TAKEN_SEATS]: new Set(sold) },
      }),
    );
    // Searched once the flight is this full: each offer is at the price of its last seats.
    const offers = await Promise.all(Array.from({ length: 100 }, () => offerFor()));
    expect(new Set(offers.map(flightNumberOf))).toEqual(new Set([flightNumber]));
    const price = (designator: string) =>
      map.seat_maps[0].cabins
        .flatMap((c: Json) => c.rows.flatMap((r: Json) => r.sections.flat()))
        .find((e: Json) => e.designator === designator).price.amount;

    const answers = await Promise.all(
      offers.map((offer, i) => {
        const designator = last[i % 8] ?? '';
        const seats = [{ segment_index: 0, passenger_index: 0, designator }];
        return book(session, withExtras(offer, { seats }, price(designator)));
      }),
    );

    // A booking may meet the machine's load as a 503 (its deadline passed, nothing answered as booked);
    // what was stored is the truth: each seat once, and each seat sold.
    for (const answer of answers) {
      expect([201, 409, 503], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 409) expect(['SEAT_UNAVAILABLE', 'SOLD_OUT']).toContain(answer.body.error.code);
    }
    const { Items } = await testTable.db.send(
      new ScanCommand({ TableName: testTable.tableName, ConsistentRead: true }),
    );
    const stored = (Items ?? []).filter((i) => i.sk === 'BOOKING' && i.agency_id === session.agent.agency_id);
    const storedSeats = stored.map((i) => i.passengers[0].seats[0].designator).sort();
    expect(storedSeats).toEqual([...last].sort());
    const answered = answers
      .filter((a) => a.status === 201)
      .map((a) => a.body.data.passengers[0].seats[0].designator);
    expect(new Set(answered).size).toBe(answered.length);
    expect(await inventoryItem(flightNumber, date)).toMatchObject({
      sold_Y: economy.length,
      [TAKEN_SEATS]: new Set(economy),
    });
  });
});
