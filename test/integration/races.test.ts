import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, freshTravelDate, type Json, searchOffers } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { signIn } from '#test/helpers/session.ts';

describe('races', () => {
  it('parallel creates and cancels on one flight keep inventory equal to the confirmed seats, never negative', {
    timeout: 60_000,
  }, async () => {
    freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const date = freshTravelDate();
    const agents = await Promise.all(Array.from({ length: 10 }, () => signIn({ agencyId: 'racing-agency' })));
    const agent = (i: number) => {
      const found = agents[i % agents.length];
      if (!found) throw new Error('no agent');
      return found;
    };
    const offersFor = async () => {
      const [first] = await searchOffers(agent(0), { departure_date: date });
      return first as Json;
    };
    const target = await offersFor();
    const flightNumber = target.outbound.segments[0].flight_number;
    const freshOffer = async (i: number) =>
      ((await searchOffers(agent(i), { departure_date: date })) as Json[]).find(
        (o) => o.outbound.segments[0].flight_number === flightNumber,
      );

    // 20 bookings first, then 20 cancels and 20 new bookings all at once.
    const first = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => book(agent(i), bookingBody(await freshOffer(i)))),
    );
    const confirmed = first.filter((a) => a.status === 201).map((a) => ({ id: a.body.data.booking_id }));
    const offers = await Promise.all(Array.from({ length: 20 }, (_, i) => freshOffer(i)));
    const results = await Promise.all([
      ...confirmed.map(({ id }) => invoke(cancel, { headers: agent(0).headers, body: { booking_id: id } })),
      ...offers.map((offer, i) => book(agent(i), bookingBody(offer))),
      // The same bookings cancelled twice more, concurrently.
      ...confirmed
        .slice(0, 5)
        .map(({ id }) => invoke(cancel, { headers: agent(1).headers, body: { booking_id: id } })),
    ]);

    for (const answer of results) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    const { Item } = await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: inventoryKey(flightNumber, date),
        ConsistentRead: true,
      }),
    );
    const { Items } = await testTable.db.send(
      new ScanCommand({ TableName: testTable.tableName, ConsistentRead: true }),
    );
    const liveSeats = (Items ?? [])
      .filter((item) => item.sk === 'BOOKING' && item.status === 'CONFIRMED')
      .filter((item) => item.segments.some((s: Json) => s.flight_number === flightNumber && s.date === date))
      .reduce((sum, item) => sum + item.seats, 0);
    expect(Item?.sold_Y).toBeGreaterThanOrEqual(0);
    expect(Item?.sold_Y).toBe(liveSeats);
    expect(liveSeats).toBe(
      results.slice(confirmed.length, confirmed.length + offers.length).filter((a) => a.status === 201)
        .length,
    );
  });
});
