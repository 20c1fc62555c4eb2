import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import {
  type Listening,
  type LocalServer,
  post,
  startListening,
  startLocalServer,
} from '#test/helpers/local-server.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';

/**
 * What the README's "Selling real flights" promises a newcomer: `npm run duffel-stand-in`, then
 * `SUPPLIER=duffel DUFFEL_ACCESS_TOKEN=… DUFFEL_API_URL=… npm start`, then book, get and cancel a
 * one-way and a round-trip journey over HTTP. Every answer is checked against the OpenAPI document.
 */
const TOKEN = 'duffel_test_e2eStandInToken0123456789';
let standIn: Listening;
let server: LocalServer;
let standInUrl: string;
let auth: Record<string, string>;

beforeAll(async () => {
  standIn = await startListening(['infra/local/duffel-stand-in.ts', '--port', '0']);
  standInUrl = standIn.url;
  server = await startLocalServer(undefined, {
    SUPPLIER: 'duffel',
    DUFFEL_ACCESS_TOKEN: TOKEN,
    DUFFEL_API_URL: standInUrl,
    // A hung order call gives up after 1.5 s, and the sweep runs every second: the PENDING test below.
    DUFFEL_ORDER_TIMEOUT_MS: '1500',
    SWEEP_INTERVAL_SECONDS: '1',
  });
  await post(`${server.url}/api/auth/send-otp`, { identifier: 'agent@example.com', type: 'EMAIL' });
  const code = await lastCodeFor('agent@example.com', server.dataDir);
  const verified = await post(`${server.url}/api/auth/verify-otp`, { identifier: 'agent@example.com', code });
  auth = { Authorization: `Bearer ${verified.body.data.verification_token}` };
});

afterAll(async () => {
  await server?.stop();
  await standIn?.stop();
});

const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  post(`${server.url}/api/flights/${path}`, body, { ...auth, ...headers });
const inDays = (days: number) => new Date(Date.now() + days * 864e5).toISOString().slice(0, 10);

describe('e2e: npm start in duffel mode against the stand-in', () => {
  it.each([
    ['a one-way journey', { departure_date: inDays(7) }],
    ['a round-trip journey', { departure_date: inDays(7), return_date: inDays(14) }],
  ])('searches, books, gets and cancels %s', async (_journey, dates) => {
    const search = await call('search', { origin: 'LHR', destination: 'JFK', ...dates });
    const [offer] = search.body.data;
    const booked = await call(
      'booking/create',
      {
        flight_id: offer.id,
        flight_details: offer,
        total_price: offer.total_price,
        currency: offer.currency,
        ...exampleTraveller,
      },
      { 'Idempotency-Key': `e2e-${offer.id.slice(-12)}` },
    );
    const found = await call('booking/get', { pnr: booked.body.data.pnr });
    const cancelled = await call('booking/cancel', { booking_id: booked.body.data.booking_id });

    expect(search.status).toBe(200);
    expect(search.body.meta.currency).toBe('GBP');
    expect(offer).toMatchObject({ seats_available: null, currency: 'GBP' });
    expect(offer.outbound.segments[0]).toMatchObject({ carrier_name: 'Duffel Airways', origin: 'LHR' });
    expect(Boolean(offer.inbound)).toBe('return_date' in dates);
    expect(booked.status).toBe(201);
    expect(booked.body.data).toMatchObject({
      status: 'CONFIRMED',
      pnr: expect.stringMatching(/^[A-Z0-9]{5,8}$/),
      supplier: { name: 'duffel', order_id: expect.stringMatching(/^ord_/) },
      flight: offer,
    });
    expect(found.body.data).toEqual(booked.body.data);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund: { currency: 'GBP' } });
  });

  it('answers 202 PENDING when Duffel never answers the order it made (or what the sweep settled meanwhile), and the sweep confirms it', async () => {
    const search = await call('search', { origin: 'CDG', destination: 'FCO', departure_date: inDays(9) });
    const [offer] = search.body.data;
    await fetch(`${standInUrl}/_stand-in/faults`, {
      method: 'POST',
      body: JSON.stringify({ endpoint: 'orders.create', fault: { kind: 'timeout-after' } }),
    });
    const booked = await call('booking/create', {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      ...exampleTraveller,
    });
    let found = await call('booking/get', { booking_id: booked.body.data.booking_id });
    for (let i = 0; i < 40 && found.body.data.status === 'PENDING'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      found = await call('booking/get', { booking_id: booked.body.data.booking_id });
    }

    // PENDING (version 1), settled by the sweep one version on; or, when the sweep found the order
    // before the request gave up on Duffel's answer, the booking it settled (never a stale PENDING).
    if (booked.status === 202) {
      expect(booked.body.data).toMatchObject({ status: 'PENDING', pnr: null, version: 1 });
      expect(found.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    } else {
      expect(booked.status).toBe(201);
      expect(found.body.data).toEqual(booked.body.data);
      expect(found.body.data).toMatchObject({ status: 'CONFIRMED', version: 1 });
    }
    expect(found.body.data.pnr).toMatch(/^[A-Z0-9]{5,8}$/);
  });

  it('never prints the Duffel token', () => {
    expect(server.output()).not.toContain(TOKEN);
    expect(server.output()).toContain('Duffel at http://127.0.0.1:');
  });
});
