import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '#test/helpers/bookings.ts';
import { type DuffelStandIn, startDuffelStandIn } from '../../../infra/local/duffel-stand-in.ts';

/**
 * The stand-in's order changes, as Duffel documents them (order change requests → order change offers →
 * order changes, confirmed once): the flow a change of a Duffel booking will take, its nullable fields
 * (`penalty_amount` null where the airline states none) and the read that settles a lost confirm.
 */
let standIn: DuffelStandIn;
beforeAll(async () => {
  standIn = await startDuffelStandIn();
});
afterAll(() => standIn.close());

const headers = {
  Authorization: 'Bearer duffel_test_stand_in',
  'Duffel-Version': 'v2',
  'Content-Type': 'application/json',
};
const call = async (method: string, path: string, data?: unknown) => {
  const response = await fetch(standIn.url + path, {
    method,
    headers,
    ...(data !== undefined && { body: JSON.stringify({ data }) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
};

async function orderOf(departure: string): Promise<Json> {
  const found = await call('POST', '/air/offer_requests?return_offers=true', {
    slices: [{ origin: 'LHR', destination: 'JFK', departure_date: departure }],
    passengers: [{ type: 'adult' }],
    cabin_class: 'economy',
  });
  const [offer] = found.body.data.offers;
  const made = await call('POST', '/air/orders', {
    type: 'instant',
    selected_offers: [offer.id],
    passengers: [
      {
        id: offer.passengers[0].id,
        title: 'ms',
        gender: 'f',
        given_name: 'Ada',
        family_name: 'Lovelace',
        born_on: '1985-12-10',
        email: 'ada@example.com',
        phone_number: '+447700900123',
      },
    ],
    payments: [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }],
  });
  expect(made.status).toBe(201);
  return made.body.data;
}

describe('Duffel stand-in: order changes', () => {
  it('quotes change offers for a slice moved to another day, changes it once, and answers the change when asked', async () => {
    const order = await orderOf('2027-03-10');
    const slice = order.slices[0];

    const requested = await call('POST', '/air/order_change_requests', {
      order_id: order.id,
      slices: {
        remove: [{ slice_id: slice.id }],
        add: [{ origin: 'LHR', destination: 'JFK', departure_date: '2027-03-12', cabin_class: 'economy' }],
      },
    });

    expect(requested.status).toBe(201);
    const [offer] = requested.body.data.order_change_offers;
    expect(offer.id).toMatch(/^oco_/);
    expect(offer.slices.remove[0].id).toBe(slice.id);
    expect(offer.slices.add[0].segments[0].departing_at.slice(0, 10)).toBe('2027-03-12');
    // The order's slice states no change condition: Duffel's null penalty.
    expect(offer.penalty_amount).toBeNull();
    expect(offer.change_total_amount).toMatch(/^-?\d+\.\d{2}$/);
    expect(offer.new_total_amount).toMatch(/^\d+\.\d{2}$/);
    expect((await call('GET', `/air/order_change_requests/${requested.body.data.id}`)).body.data.id).toBe(
      requested.body.data.id,
    );

    const pending = await call('POST', '/air/order_changes', { selected_order_change_offer: offer.id });
    expect(pending.status).toBe(201);
    expect(pending.body.data.confirmed_at).toBeNull();
    const payment = offer.change_total_amount.startsWith('-')
      ? {}
      : {
          payment: {
            type: 'balance',
            amount: offer.change_total_amount,
            currency: offer.change_total_currency,
          },
        };
    const confirmed = await call(
      'POST',
      `/air/order_changes/${pending.body.data.id}/actions/confirm`,
      payment,
    );
    const again = await call('POST', `/air/order_changes/${pending.body.data.id}/actions/confirm`, payment);
    const asked = await call('GET', `/air/order_changes/${pending.body.data.id}`);

    expect(confirmed.status).toBe(200);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].code).toBe('already_confirmed');
    expect(asked.body.data.confirmed_at).toBe(confirmed.body.data.confirmed_at);
    const changed = (await call('GET', `/air/orders/${order.id}`)).body.data;
    expect(changed.total_amount).toBe(offer.new_total_amount);
    expect(changed.slices.map((s: Json) => s.segments[0].departing_at.slice(0, 10))).toEqual(['2027-03-12']);
  });

  it('refuses a slice that is not the order’s, and a change that costs something without its payment', async () => {
    const order = await orderOf('2027-04-10');
    const wrong = await call('POST', '/air/order_change_requests', {
      order_id: order.id,
      slices: { remove: [{ slice_id: 'sli_nope' }], add: [] },
    });
    expect(wrong.status).toBe(422);

    const requested = await call('POST', '/air/order_change_requests', {
      order_id: order.id,
      slices: {
        remove: [{ slice_id: order.slices[0].id }],
        add: [{ origin: 'LHR', destination: 'JFK', departure_date: '2027-04-11', cabin_class: 'economy' }],
      },
    });
    const [costly] = (requested.body.data.order_change_offers as Json[]).sort(
      (x, y) => Number(y.change_total_amount) - Number(x.change_total_amount),
    );
    expect(Number(costly.change_total_amount)).toBeGreaterThan(0);
    const pending = await call('POST', '/air/order_changes', { selected_order_change_offer: costly.id });
    const unpaid = await call('POST', `/air/order_changes/${pending.body.data.id}/actions/confirm`, {});
    expect(unpaid.status).toBe(422);
    expect(
      (await call('GET', `/air/order_changes/${pending.body.data.id}`)).body.data.confirmed_at,
    ).toBeNull();
  });
});
