import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalServer, newDataDir, post, startLocalServer } from '#test/helpers/local-server.ts';
import { type Receiver, startReceiver, until } from '#test/helpers/webhook-receiver.ts';

/**
 * `npm start` as a new user runs it, over HTTP with a real receiver: the events it sent before a
 * restart are not sent again to an endpoint registered after it (the pipeline keeps its place in the
 * stream under DATA_DIR), and a ping reaches the endpoint signed, shown in webhooks/list.
 */
const servers: LocalServer[] = [];
let hook: Receiver | undefined;
afterAll(async () => {
  await hook?.close();
  await Promise.all(servers.map((s) => s.stop()));
});

const ADMIN = 'agent@example.com';
const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

async function signIn(server: LocalServer) {
  expect((await post(`${server.url}/api/auth/send-otp`, { identifier: ADMIN, type: 'EMAIL' })).status).toBe(
    202,
  );
  const outbox = await readFile(join(server.dataDir, 'outbox.jsonl'), 'utf8');
  const code = outbox
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.to === ADMIN)
    .at(-1)?.code;
  const verified = await post(`${server.url}/api/auth/verify-otp`, { identifier: ADMIN, code });
  return { Authorization: `Bearer ${verified.body.data.verification_token}` };
}

async function bookOne(server: LocalServer, auth: Record<string, string>, index: number): Promise<string> {
  const search = { origin: 'LHR', destination: 'JFK', departure_date: inAWeek, limit: 10 };
  const offer = (await post(`${server.url}/api/flights/search`, search, auth)).body.data[index];
  const booked = await post(
    `${server.url}/api/flights/booking/create`,
    {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      passengers: [
        {
          title: 'ms',
          first_name: 'Ada',
          last_name: 'Lovelace',
          pax_type: 'ADULT',
          gender: 'f',
          born_on: '1985-05-01',
        },
      ],
      contact: { email: 'ada@example.com', phone: '+447700900123' },
    },
    auth,
  );
  expect(booked.status).toBe(201);
  return booked.body.data.booking_id;
}

const noticed = async (server: LocalServer) =>
  new Set(
    (await readFile(join(server.dataDir, 'notices.jsonl'), 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).booking_id),
  );

describe('e2e: events across a restart, and a ping', () => {
  it('an endpoint registered after a restart gets a ping and the new booking only', {
    timeout: 120_000,
  }, async () => {
    const dataDir = newDataDir();
    const first = await startLocalServer(dataDir);
    servers.push(first);
    const auth = await signIn(first);
    const earlier = [await bookOne(first, auth, 0), await bookOne(first, auth, 1)];
    await until(
      'the earlier bookings published',
      async () => {
        const seen = await noticed(first);
        return earlier.every((id) => seen.has(id));
      },
      20_000,
    );
    await first.stop();

    const second = await startLocalServer(dataDir);
    servers.push(second);
    hook = await startReceiver();
    const created = await post(`${second.url}/api/agency/webhooks/create`, { url: hook.url }, auth);
    expect(created.status).toBe(201);
    hook.useSecret(created.body.data.secret);

    const pinged = await post(
      `${second.url}/api/agency/webhooks/ping`,
      { webhook_id: created.body.data.id },
      auth,
    );
    expect(pinged.status).toBe(202);
    await until('the ping delivered', () => hook?.deliveries.length === 1, 20_000);
    expect(hook.deliveries[0]).toMatchObject({
      id: pinged.body.data.event_id,
      verified: true,
      body: { type: 'webhook.ping', data: { webhook_id: created.body.data.id, agency_id: 'demo-agency' } },
    });
    await until(
      'last_delivery shows the ping',
      async () => {
        const listed = await post(`${second.url}/api/agency/webhooks/list`, {}, auth);
        return listed.body.data[0].last_delivery?.event_id === pinged.body.data.event_id;
      },
      20_000,
    );
    const listed = await post(`${second.url}/api/agency/webhooks/list`, {}, auth);
    expect(listed.body.data[0].last_delivery).toMatchObject({ outcome: 'delivered', http_status: 204 });

    const later = await bookOne(second, auth, 2);
    await until('the new booking delivered', () => (hook?.deliveries.length ?? 0) >= 2, 20_000);
    await until('the new booking noticed', async () => (await noticed(second)).has(later), 20_000);
    expect(hook.deliveries.map((d) => [d.body.type, d.body.data.booking_id ?? null, d.verified])).toEqual([
      ['webhook.ping', null, true],
      ['booking.confirmed', later, true],
    ]);
  });
});
