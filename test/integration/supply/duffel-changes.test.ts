import { describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { duffelMode, freshEachTest } from '#test/helpers/duffel.ts';
import { testContext } from '#test/helpers/test-context.ts';

/**
 * Changes of a Duffel booking (docs/API.md §4.9) through the stand-in: an order change request removing
 * the booked slice and adding the new one, its offers answered as ChangeOffers — Duffel's totals, its
 * null penalty as null, money back with its `refund_to`, an offer that states no total left out.
 */
const duffel = await duffelMode();
const { standIn } = duffel;
const state = freshEachTest(standIn, 'dchange');

const booked = async () => {
  const found = await duffel.search(state.session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: `2027-03-${String(state.day).padStart(2, '0')}`,
  });
  expect(found.status).toBe(200);
  const made = await duffel.book(state.session, bookingBody((found.body.data as Json[])[0]));
  expect(made.status).toBe(201);
  return made.body.data;
};
const changeSearch = (booking: Json) =>
  duffel.changeSearch(state.session, {
    booking_id: booking.booking_id,
    journeys: [{ index: 0, departure_date: '2027-04-20' }],
  });
/** The stand-in's order made for `booking` (our booking id in its metadata). */
const orderOf = (booking: Json) =>
  [...standIn.orders.values()].find((o) => (o.metadata as Json)?.booking_id === booking.booking_id);
/** The airline states `condition` for changing every slice of `booking`'s order. */
const changeCondition = (booking: Json, condition: Json) => {
  const order = orderOf(booking) as Json;
  standIn.orders.set(order.id, {
    ...order,
    slices: order.slices.map((s: Json) => ({
      ...s,
      conditions: { ...s.conditions, change_before_departure: condition },
    })),
  });
};
const changeRequests = () => standIn.requests.filter((r) => r.path === '/air/order_change_requests');

describe('Duffel change search', () => {
  it('answers Duffel’s change offers as ChangeOffers with the whole trip as it would be', async () => {
    const booking = await booked();
    const order = orderOf(booking);
    let captured: Json;
    standIn.reshape('order_change_requests.create', (data) => {
      captured = data;
      return data;
    });
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(200);
    const offers = answer.body.data as Json[];
    expect(offers.length).toBeGreaterThan(0);
    const sent = changeRequests().at(-1)?.body as Json;
    expect(sent.data.slices.remove).toEqual([{ slice_id: order?.slices[0]?.id }]);
    expect(sent.data.slices.add).toEqual([
      { origin: 'LHR', destination: 'JFK', departure_date: '2027-04-20', cabin_class: 'economy' },
    ]);
    for (const offer of offers) {
      expect(offer.flight.slices[0].segments[0].departure_at.slice(0, 10)).toBe('2027-04-20');
      expect(offer.flight.id).toBe(offer.id);
      expect(offer.change_total.currency).toBe(booking.currency);
      expect(Date.parse(offer.expires_at)).toBeLessThanOrEqual(testContext.clock.now() + 20 * 60_000);
    }
    const totals = offers.map((o) => o.change_total.amount);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    // Each ChangeOffer states what Duffel's offer does: its total, its penalty (null where none), the new total less the old.
    const minor = (amount: string | null) => (amount === null ? null : Math.round(Number(amount) * 100));
    const toMinor = (money: Json | null) => (money === null ? null : Math.round(money.amount * 100));
    for (const offer of offers) {
      const theirs = (captured.order_change_offers as Json[]).filter(
        (o) => minor(o.change_total_amount) === toMinor(offer.change_total),
      );
      expect(theirs.length).toBeGreaterThan(0);
      const [duffelOffer] = theirs;
      expect(toMinor(offer.penalty)).toBe(minor(duffelOffer.penalty_amount));
      expect(toMinor(offer.fare_difference)).toBe(
        (minor(duffelOffer.new_total_amount) ?? 0) - (minor(order?.total_amount ?? null) ?? 0),
      );
      expect(offer.flight.total_price).toBeCloseTo(booking.total_price + offer.fare_difference.amount, 2);
    }
  });

  it('answers a null penalty and fare difference where Duffel states none, and leaves out an offer without a total', async () => {
    const booking = await booked();
    standIn.reshape('order_change_requests.create', (data) => ({
      ...data,
      order_change_offers: data.order_change_offers.map((offer: Json, i: number) => ({
        ...offer,
        penalty_amount: null,
        penalty_currency: null,
        new_total_amount: null,
        ...(i === 0 && { change_total_amount: null }),
      })),
    }));
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(200);
    const offers = answer.body.data as Json[];
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      expect(offer.penalty).toBeNull();
      expect(offer.fare_difference).toBeNull();
      expect(typeof offer.change_total.amount).toBe('number');
    }
  });

  it('answers money back with Duffel’s refund_to', async () => {
    const booking = await booked();
    standIn.reshape('order_change_requests.create', (data) => ({
      ...data,
      order_change_offers: data.order_change_offers.map((offer: Json) => ({
        ...offer,
        change_total_amount: '-25.50',
        refund_to: 'voucher',
      })),
    }));
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(200);
    const [offer] = answer.body.data as Json[];
    expect(offer.change_total).toEqual({ amount: -25.5, currency: booking.currency });
    expect(offer.refund_to).toBe('voucher');
  });

  it('answers 409 NOT_CHANGEABLE when Duffel refuses the change', async () => {
    const booking = await booked();
    changeCondition(booking, { allowed: false });
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('NOT_CHANGEABLE');
  });

  it('answers null where Duffel states the penalty or the new total in another currency, and no refund_to it does not name', async () => {
    const booking = await booked();
    standIn.reshape('order_change_requests.create', (data) => ({
      ...data,
      order_change_offers: data.order_change_offers.map((offer: Json) => ({
        ...offer,
        change_total_amount: '-10.00',
        penalty_currency: 'USD',
        new_total_currency: 'USD',
        refund_to: 'original_form_of_payment',
      })),
    }));
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(200);
    const offers = answer.body.data as Json[];
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      expect(offer.change_total).toEqual({ amount: -10, currency: booking.currency });
      expect(offer.penalty).toBeNull();
      expect(offer.fare_difference).toBeNull();
      expect(offer).not.toHaveProperty('refund_to');
    }
  });

  it('leaves out an offer whose new slice our Flight cannot carry', async () => {
    const booking = await booked();
    let stated = 0;
    standIn.reshape('order_change_requests.create', (data) => {
      stated = data.order_change_offers.length;
      const [first, ...rest] = data.order_change_offers;
      const unnamed = (slice: Json) => ({
        ...slice,
        segments: slice.segments.map((segment: Json) => ({
          ...segment,
          marketing_carrier_flight_number: null,
        })),
      });
      return {
        ...data,
        order_change_offers: [
          { ...first, slices: { ...first.slices, add: first.slices.add.map(unnamed) } },
          ...rest,
        ],
      };
    });
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(200);
    expect(stated).toBeGreaterThan(1);
    expect(answer.body.data).toHaveLength(stated - 1);
  });

  it('answers 400 for a journey the booking does not have, asking Duffel nothing', async () => {
    const booking = await booked();
    const before = changeRequests().length;
    const answer = await duffel.changeSearch(state.session, {
      booking_id: booking.booking_id,
      journeys: [{ index: 1, departure_date: '2027-04-20' }],
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: 'journeys.0.index', message: 'must be below 1' }]);
    expect(changeRequests().length).toBe(before);
  });

  it('answers 503 when Duffel gives no answer to the change request', async () => {
    const booking = await booked();
    standIn.fail('order_change_requests.create', { kind: 'status', status: 503 }, 5);
    const answer = await changeSearch(booking);

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('Duffel change', () => {
  const confirms = () =>
    standIn.requests.filter((r) => /^\/air\/order_changes\/[\w-]+\/actions\/confirm$/.test(r.path));
  const changeOf = (booking: Json, offer: Json, headers: Record<string, string> = {}) =>
    duffel.change(
      state.session,
      { booking_id: booking.booking_id, change_offer_id: offer.id, change_total: offer.change_total },
      headers,
    );
  const firstChangeOffer = async (booking: Json) => {
    const answer = await changeSearch(booking);
    expect(answer.status).toBe(200);
    return (answer.body.data as Json[])[0];
  };

  it('changes the order once and answers the booking with the new flight, changes[] and version + 1', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const before = confirms().length;
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(200);
    const changed = answer.body.data;
    expect(changed.version).toBe(booking.version + 1);
    expect(changed.flight.slices[0].segments[0].departure_at.slice(0, 10)).toBe('2027-04-20');
    expect(changed.changes).toHaveLength(1);
    expect(changed.changes[0].change_total).toEqual(offer.change_total);
    expect(changed.changes[0].from.length).toBeGreaterThan(0);
    expect(changed.changes[0].to[0].departure_at.slice(0, 10)).toBe('2027-04-20');
    expect(confirms().length).toBe(before + 1);
    const order = orderOf(booking) as Json;
    expect(order.slices[0].segments[0].departing_at.slice(0, 10)).toBe('2027-04-20');
    expect((await duffel.get(state.session, { booking_id: booking.booking_id })).body.data.version).toBe(
      booking.version + 1,
    );
  });

  it('answers the same booking to a replay of the Idempotency-Key, confirming nothing again', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const key = { 'Idempotency-Key': `change-${state.day}-${Math.random().toString(36).slice(2)}` };
    const first = await changeOf(booking, offer, key);
    const before = confirms().length;
    const again = await changeOf(booking, offer, key);

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(confirms().length).toBe(before);
  });

  it('settles a lost confirm by reading the change: confirmed once, never sent again', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const before = confirms().length;
    standIn.fail('order_changes.confirm', { kind: 'timeout-after' });
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(200);
    expect(answer.body.data.version).toBe(booking.version + 1);
    expect(confirms().length).toBe(before + 1);
    expect(standIn.requests.some((r) => r.method === 'GET' && r.path.startsWith('/air/order_changes/'))).toBe(
      true,
    );
  });

  it('settles a confirm lost to a 5xx whose change Duffel does not show yet on the next request, by reading', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const before = confirms().length;
    standIn.fail('order_changes.confirm', { kind: 'error-after', status: 502 });
    standIn.fail('order_changes.get', { kind: 'status', status: 503 }, 3);
    const lost = await changeOf(booking, offer);
    expect(lost.status).toBe(503);
    standIn.clearFaults();
    const again = await changeOf(booking, offer);

    expect(again.status).toBe(200);
    expect(again.body.data.version).toBe(booking.version + 1);
    expect(confirms().length).toBe(before + 1);
  });

  it('answers 409 PRICE_CHANGED with a fresh ChangeOffer for a total other than the offer’s', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const answer = await changeOf(booking, {
      ...offer,
      change_total: { ...offer.change_total, amount: offer.change_total.amount + 1 },
    });

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('PRICE_CHANGED');
    expect(answer.body.error.details.change_offer.id).toEqual(expect.any(String));
  });

  it('answers 410 OFFER_EXPIRED after the offer’s 20 minutes', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    state.advance(21 * 60_000);
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(410);
    expect(answer.body.error.code).toBe('OFFER_EXPIRED');
  });

  it('changes a fare whose penalty Duffel does not state: penalty null, the change made', async () => {
    const booking = await booked();
    changeCondition(booking, null);
    const offer = await firstChangeOffer(booking);
    expect(offer.penalty).toBeNull();
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(200);
    expect(answer.body.data.changes[0].change_total).toEqual(offer.change_total);
  });

  it('gives money back: a negative total confirmed without a payment, refund_to as Duffel states it', async () => {
    const booking = await booked();
    const order = orderOf(booking) as Json;
    // The order worth far more than any new flight: Duffel's change total is money back.
    standIn.orders.set(order.id, { ...order, total_amount: '9000.00' });
    const offer = await firstChangeOffer(booking);
    expect(offer.change_total.amount).toBeLessThan(0);
    expect(offer.refund_to).toBe('balance');
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(200);
    expect(answer.body.data.changes[0].change_total).toEqual(offer.change_total);
    const confirm = confirms().at(-1) as Json;
    expect(confirm.body.data).not.toHaveProperty('payment');
  });

  it('lets the sweep settle a lost confirm after the call’s lease, by reading the change', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const before = confirms().length;
    standIn.fail('order_changes.confirm', { kind: 'error-after', status: 502 });
    standIn.fail('order_changes.get', { kind: 'status', status: 503 }, 3);
    expect((await changeOf(booking, offer)).status).toBe(503);
    standIn.clearFaults();
    state.advance(2 * 60_000);
    const settled = await duffel.settleCalls();

    expect(settled.changed).toBe(1);
    const now = (await duffel.get(state.session, { booking_id: booking.booking_id })).body.data;
    expect(now.version).toBe(booking.version + 1);
    expect(now.changes[0].change_total).toEqual(offer.change_total);
    expect(confirms().length).toBe(before + 1);
  });

  it('lets the sweep clear a change call whose change was never confirmed, the booking as it was', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    standIn.fail('order_changes.confirm', { kind: 'timeout-before' });
    expect((await changeOf(booking, offer)).status).toBe(503);
    state.advance(2 * 60_000);
    const settled = await duffel.settleCalls();

    expect(settled.cleared).toBe(1);
    const now = (await duffel.get(state.session, { booking_id: booking.booking_id })).body.data;
    expect(now.version).toBe(booking.version);
    const fresh = await firstChangeOffer(booking);
    expect((await changeOf(booking, fresh)).status).toBe(200);
  });

  it('answers 409 PRICE_CHANGED, confirming nothing, when Duffel’s order change states another total', async () => {
    const booking = await booked();
    const offer = await firstChangeOffer(booking);
    const before = confirms().length;
    standIn.reshape('order_changes.create', (data) => ({ ...data, change_total_amount: '999.99' }));
    const answer = await changeOf(booking, offer);

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('PRICE_CHANGED');
    expect(answer.body.error.details.previous_total_price).toBe(offer.change_total.amount);
    expect(confirms().length).toBe(before);
    const now = (await duffel.get(state.session, { booking_id: booking.booking_id })).body.data;
    expect(now.version).toBe(booking.version);
  });
});
