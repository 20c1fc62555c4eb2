import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '#test/helpers/bookings.ts';
import { type DuffelStandIn, startDuffelStandIn } from '../../../infra/local/duffel-stand-in.ts';

/**
 * The stand-in speaks Duffel's wire format: the adapter's tests are only as good as this. Its shapes are
 * typed by @duffel/api; these check the behaviour the types cannot: envelopes, error bodies, headers,
 * the rate limit, one order per offer, and the fault switches.
 */
let standIn: DuffelStandIn;
beforeAll(async () => {
  standIn = await startDuffelStandIn({ rateLimit: 40 });
});
afterAll(() => standIn.close());

const headers = {
  Authorization: 'Bearer duffel_test_stand_in',
  'Duffel-Version': 'v2',
  'Content-Type': 'application/json',
};
const call = async (method: string, path: string, data?: unknown, extra: Record<string, string> = {}) => {
  const response = await fetch(standIn.url + path, {
    method,
    headers: { ...headers, ...extra },
    ...(data !== undefined && { body: JSON.stringify({ data }) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
};
const search = (slices: unknown[], passengers: unknown[] = [{ type: 'adult' }]) =>
  call('POST', '/air/offer_requests?return_offers=true', { slices, passengers, cabin_class: 'business' });
const travellers = (offer: { passengers: { id: string }[] }) =>
  offer.passengers.map((p, i) => ({
    id: p.id,
    title: 'ms',
    gender: 'f',
    given_name: 'Ada',
    family_name: `Lovelace${i}`,
    born_on: '1985-12-10',
    email: 'ada@example.com',
    phone_number: '+447700900123',
  }));
const order = (offer: {
  id: string;
  total_amount: string;
  total_currency: string;
  passengers: { id: string }[];
}) =>
  call('POST', '/air/orders', {
    type: 'instant',
    selected_offers: [offer.id],
    passengers: travellers(offer),
    payments: [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }],
    metadata: { booking_id: 'bkg_1' },
  });

describe('Duffel stand-in', () => {
  it('answers an offer request in {data} with string amounts, local times and airport zones', async () => {
    const answer = await search(
      [
        { origin: 'LHR', destination: 'JFK', departure_date: '2027-03-27' },
        { origin: 'JFK', destination: 'LHR', departure_date: '2027-04-03' },
      ],
      [{ type: 'adult' }, { age: 7 }],
    );

    expect(answer.status).toBe(201);
    const [offer] = answer.body.data.offers;
    expect(offer.total_amount).toMatch(/^\d+\.\d{2}$/);
    expect(offer.slices).toHaveLength(2);
    const segment = offer.slices[0].segments[0];
    expect(segment.departing_at).toMatch(/^2027-03-27T\d{2}:\d{2}:00$/);
    expect(segment.origin.time_zone).toBe('Europe/London');
    expect(segment.destination.time_zone).toBe('America/New_York');
    expect(offer.passengers.map((p: { type: string }) => p.type)).toEqual(['adult', 'child']);
    expect(answer.headers.get('ratelimit-limit')).toBe('40');
    expect(Number.isNaN(Date.parse(answer.headers.get('ratelimit-reset') ?? ''))).toBe(false);
  });

  it('refuses a second order for a booked offer, and a wrong payment amount', async () => {
    const [offer] = (await search([{ origin: 'CDG', destination: 'FCO', departure_date: '2027-02-10' }])).body
      .data.offers;

    const underpaid = await order({ ...offer, total_amount: '1.00' });
    const first = await order(offer);
    const second = await order(offer);

    expect(underpaid.status).toBe(422);
    expect(underpaid.body.errors[0]).toMatchObject({ type: 'airline_error', code: 'price_changed' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      metadata: { booking_id: 'bkg_1' },
      total_amount: offer.total_amount,
    });
    expect(first.body.data.booking_reference).toMatch(/^[A-Z0-9]{6}$/);
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({
      errors: [{ type: 'invalid_state_error', code: 'already_booked' }],
      meta: { request_id: expect.any(String) },
    });
  });

  it('names the field of a validation error, and wants a token and Duffel-Version v2', async () => {
    const [offer] = (await search([{ origin: 'MAD', destination: 'LIS', departure_date: '2027-02-11' }])).body
      .data.offers;
    const answer = await call('POST', '/air/orders', {
      type: 'instant',
      selected_offers: [offer.id],
      passengers: travellers(offer).map((p) => ({ ...p, gender: 'x' })),
      payments: [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }],
    });
    const noVersion = await call('GET', `/air/offers/${offer.id}`, undefined, { 'Duffel-Version': 'v1' });
    const noToken = await call('GET', `/air/offers/${offer.id}`, undefined, { Authorization: 'Bearer x' });

    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatchObject({
      code: 'invalid_gender',
      source: { field: 'passengers[0].gender' },
    });
    expect(noVersion.status).toBe(400);
    expect(noToken.status).toBe(401);
  });

  it('quotes a cancellation and confirms it; lists orders by passenger name', async () => {
    const [offer] = (await search([{ origin: 'AMS', destination: 'BCN', departure_date: '2027-02-12' }])).body
      .data.offers;
    const made = (await order(offer)).body.data;

    const listed = await call('GET', `/air/orders?passenger_name[]=${made.passengers[0].family_name}`);
    const quote = await call('POST', '/air/order_cancellations', { order_id: made.id });
    const confirmed = await call('POST', `/air/order_cancellations/${quote.body.data.id}/actions/confirm`);
    const after = await call('GET', `/air/orders/${made.id}`);

    expect(listed.body.data.map((o: { id: string }) => o.id)).toContain(made.id);
    expect(quote.body.data).toMatchObject({ order_id: made.id, confirmed_at: null, refund_to: 'balance' });
    expect(confirmed.body.data.confirmed_at).toEqual(expect.any(String));
    expect(after.body.data.cancelled_at).toEqual(confirmed.body.data.confirmed_at);
  });

  it('reshapes an endpoint’s answers as on the wire (objects shared in memory apart) until clearFaults', async () => {
    const [offer] = (await search([{ origin: 'ARN', destination: 'OSL', departure_date: '2027-02-14' }])).body
      .data.offers;

    standIn.reshape('offers.get', (o) => {
      o.owner.iata_code = null;
      return o;
    });
    const reshaped = await call('GET', `/air/offers/${offer.id}`);
    standIn.clearFaults();
    const plain = await call('GET', `/air/offers/${offer.id}`);

    expect(reshaped.body.data.owner.iata_code).toBeNull();
    expect(reshaped.body.data.slices[0].segments[0].marketing_carrier.iata_code).toBe(offer.owner.iata_code);
    expect(plain.body.data.owner.iata_code).toBe(offer.owner.iata_code);
  });

  it('injects faults: 500 acting on nothing, an order made before a 500, and its own rate limit', async () => {
    const [offer] = (await search([{ origin: 'ARN', destination: 'OSL', departure_date: '2027-02-13' }])).body
      .data.offers;
    const before = standIn.orders.size;

    standIn.fail('orders.create', { kind: 'status', status: 500 });
    const failed = await order(offer);
    standIn.fail('orders.create', { kind: 'error-after', status: 502 });
    const failedAfter = await order(offer);
    const burst = await Promise.all(Array.from({ length: 40 }, () => call('GET', `/air/offers/${offer.id}`)));

    expect(failed.status).toBe(500);
    expect(failedAfter.status).toBe(502);
    expect(standIn.orders.size).toBe(before + 1);
    expect(burst.some((r) => r.status === 429)).toBe(true);
    expect(burst.find((r) => r.status === 429)?.body.errors[0].type).toBe('rate_limit_error');
  });
});
