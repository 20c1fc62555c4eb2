import { afterAll, describe, expect, it } from 'vitest';
import { type Route, route, sweepJob } from '#shared/routes.ts';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { duffelMode } from '#test/helpers/duffel.ts';
import { recordTableActions } from '#test/helpers/dynamo-calls.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

/**
 * The grants in duffel mode, as route-permissions.test.ts proves them for the network: every DynamoDB
 * action the Duffel paths of search, create, confirm and cancel perform (holds among them) is one their
 * route grants, and the sweep's are exactly its entry's.
 */
const duffel = await duffelMode();
const { used, as, stop } = recordTableActions(testContext.db);
afterAll(stop);

describe('duffel mode: route table grants', () => {
  it('cover every DynamoDB action of the Duffel paths, and match the sweep’s exactly', async () => {
    const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const session = await signIn({ agencyId: 'perm-duffel' });
    const search = await as('search', () =>
      duffel.search(session, {
        origin: 'LHR',
        destination: 'JFK',
        departure_date: '2027-01-10',
        return_date: '2027-01-17',
      }),
    );
    const [first, second, third, fourth, fifth, sixth, seventh, eighth, ninth] = search.body.data as Json[];
    const key = { 'Idempotency-Key': 'perm-duffel-1' };
    const booked = await as('booking-create', () => duffel.book(session, bookingBody(first), key));
    await as('booking-create', () => duffel.book(session, bookingBody(first), key)); // replay
    await as('booking-create', () => duffel.book(session, { ...bookingBody(first), total_price: 1 })); // 410
    duffel.standIn.fail('orders.create', { kind: 'status', status: 429 });
    await as('booking-create', () => duffel.book(session, bookingBody(second), { 'Idempotency-Key': 'p2' })); // taken back
    advance(120_000);
    duffel.standIn.fail('orders.create', { kind: 'timeout-after' });
    await as('booking-create', () => duffel.book(session, bookingBody(third))); // 202
    duffel.standIn.fail('orders.create', { kind: 'timeout-before' });
    await as('booking-create', () => duffel.book(session, bookingBody(fourth))); // 202, never ordered
    await as('sweep', () => duffel.sweep()); // confirms the one
    advance(3 * 60_000);
    await as('sweep', () => duffel.sweep()); // fails the other
    const bookedId = booked.body.data.booking_id;
    await as('booking-refund-quote', () => duffel.refundQuote(session, { booking_id: bookedId }));
    const stale = { amount: 1, currency: booked.body.data.currency };
    await as('booking-cancel', () => duffel.cancel(session, { booking_id: bookedId, refund: stale })); // 409
    await as('booking-cancel', () => duffel.cancel(session, { booking_id: bookedId }));
    await as('booking-cancel', () => duffel.cancel(session, { booking_id: bookedId }));

    // Holds: confirmed (paid once), cancelled at Duffel, settled from PENDING, a lost payment's answer.
    const hold = (offer: Json, headers: Record<string, string> = {}) =>
      as('booking-create', () => duffel.book(session, { ...bookingBody(offer), hold: true }, headers));
    const confirm = (booking: Json, headers: Record<string, string> = {}) =>
      as('booking-confirm', () =>
        duffel.confirm(
          session,
          { booking_id: booking.booking_id, total_price: booking.total_price, currency: booking.currency },
          headers,
        ),
      );
    const paid = (await hold(fifth, { 'Idempotency-Key': 'perm-hold' })).body.data;
    expect((await confirm(paid, { 'Idempotency-Key': 'perm-confirm' })).status).toBe(200);
    await confirm(paid);
    const dropped = (await hold(sixth)).body.data;
    const cancelled = await as('booking-cancel', () =>
      duffel.cancel(session, { booking_id: dropped.booking_id }),
    );
    expect(cancelled.body.data.status).toBe('CANCELLED');
    duffel.standIn.fail('orders.create', { kind: 'timeout-after' });
    expect((await hold(seventh)).status).toBe(202);
    expect((await as('sweep', () => duffel.sweep())).held).toBe(1); // HELD
    const lost = (await hold(eighth)).body.data;
    duffel.standIn.fail('payments.create', { kind: 'timeout-after' });
    duffel.standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);
    expect((await confirm(lost)).status).toBe(503); // the payment's outcome unknown
    advance(2 * 60_000);
    // The lost payment and the listed calls of every confirm and cancel above, settled or cleared.
    expect((await as('sweep', () => duffel.settleCalls())).confirmed).toBe(1);
    const left = (await hold(ninth)).body.data;
    duffel.standIn.fail('payments.create', { kind: 'timeout-after' });
    duffel.standIn.fail('orders.get', { kind: 'status', status: 500 }, 2, 1);
    expect((await confirm(left)).status).toBe(503);
    advance(25 * 3600_000);
    expect(await as('sweep', () => duffel.expireHolds())).toBe(1); // the paid one CONFIRMED, the other EXPIRED

    for (const id of ['search', 'booking-create', 'booking-cancel', 'booking-refund-quote'] as const) {
      const granted = new Set<string>((route(id) as Route).table);
      expect(
        [...(used.get(id) ?? [])].filter((action) => !granted.has(action)),
        id,
      ).toEqual([]);
    }
    expect([...(used.get('sweep') ?? [])].sort()).toEqual([...sweepJob.table].sort());
  });
});
