import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { type LocalServer, post, startLocalServer } from '#test/helpers/local-server.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { startReceiver, until } from '#test/helpers/webhook-receiver.ts';

/** `npm start` with the event settings of docs/API.md §6: EVENTS_TIME_SCALE and WEBHOOK_URL_POLICY. */
const servers: LocalServer[] = [];
let scaled: LocalServer;
let strict: LocalServer;
beforeAll(async () => {
  scaled = await startWith({ EVENTS_TIME_SCALE: '0.001' });
  strict = await startWith({ WEBHOOK_URL_POLICY: 'deployed' });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

async function startWith(env: Record<string, string>) {
  Object.assign(process.env, env);
  try {
    const server = await startLocalServer();
    servers.push(server);
    return server;
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

async function signInDemo(server: LocalServer) {
  const identifier = 'agent@example.com';
  await post(`${server.url}/api/auth/send-otp`, { identifier, type: 'EMAIL' });
  const code = await lastCodeFor(identifier, server.dataDir);
  const answer = await post(`${server.url}/api/auth/verify-otp`, { identifier, code });
  return { Authorization: `Bearer ${answer.body.data.verification_token}` };
}

describe('e2e: event settings of npm start', () => {
  it('EVENTS_TIME_SCALE shrinks the retries: a receiver failing twice gets one webhook-id three times', async () => {
    const server = scaled;
    const receiver = await startReceiver((n) => (n <= 2 ? 500 : 204));
    try {
      const auth = await signInDemo(server);
      const hook = await post(`${server.url}/api/agency/webhooks/create`, { url: receiver.url }, auth);
      expect(hook.status).toBe(201);
      receiver.useSecret(hook.body.data.secret);
      const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      const [offer] = (
        await post(
          `${server.url}/api/flights/search`,
          { origin: 'LHR', destination: 'JFK', departure_date: date, max_connections: 0 },
          auth,
        )
      ).body.data;
      const booked = await post(
        `${server.url}/api/flights/booking/create`,
        {
          flight_id: offer.id,
          flight_details: offer,
          total_price: offer.total_price,
          currency: offer.currency,
          ...exampleTraveller,
        },
        auth,
      );
      expect(booked.status).toBe(201);

      await until('three attempts', () => receiver.deliveries.length >= 3, 10_000);
      expect(receiver.deliveries.map((d) => d.status)).toEqual([500, 500, 204]);
      expect(new Set(receiver.deliveries.map((d) => d.id)).size).toBe(1);
      expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
      expect(receiver.deliveries[0]?.body.data.booking_id).toBe(booked.body.data.booking_id);
    } finally {
      await receiver.close();
    }
  });

  it('WEBHOOK_URL_POLICY=deployed turns the deployed address checks on locally', async () => {
    const server = strict;
    const auth = await signInDemo(server);
    for (const url of ['http://127.0.0.1:4000/hooks', 'https://127.0.0.1/hooks', 'https://localhost/hooks']) {
      const answer = await post(`${server.url}/api/agency/webhooks/create`, { url }, auth);
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.details[0].path).toBe('url');
    }
    expect(server.output()).toContain('deployed URL checks');
  });
});
