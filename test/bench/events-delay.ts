/**
 * `npm run bench:events`: the events' end-to-end delay on this machine. Starts `npm start` on a fresh
 * data directory, registers an ADMIN with the agents CLI, registers a receiver, then books and cancels
 * `EVENTS_SAMPLES` (default 30) bookings one after another, each once its events arrived, and
 * measures from the API's answer to (a) the webhook's arrival at the receiver and (b) the notice's
 * line in notices.jsonl. Prints the distribution of each in milliseconds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { agentsCli, post, startLocalServer } from '#test/helpers/local-server.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { startReceiver } from '#test/helpers/webhook-receiver.ts';

const samples = Number(process.env.EVENTS_SAMPLES ?? 30);
const server = await startLocalServer();
const receiver = await startReceiver();
try {
  const identifier = 'bench-admin@example.com';
  await agentsCli(
    server.dataDir,
    'add',
    identifier,
    '--name',
    'Bench',
    '--agency',
    'bench',
    '--role',
    'ADMIN',
  );
  await post(`${server.url}/api/auth/send-otp`, { identifier, type: 'EMAIL' });
  const code = await lastCodeFor(identifier, server.dataDir);
  const signedIn = await post(`${server.url}/api/auth/verify-otp`, { identifier, code });
  const auth = { Authorization: `Bearer ${signedIn.body.data.verification_token}` };
  const hook = await post(`${server.url}/api/agency/webhooks/create`, { url: receiver.url }, auth);
  receiver.useSecret(hook.body.data.secret);

  const webhookMs: number[] = [];
  const noticeMs: number[] = [];
  const notices = join(server.dataDir, 'notices.jsonl');
  const date = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const offers = (
    await post(
      `${server.url}/api/flights/search`,
      { origin: 'LHR', destination: 'JFK', departure_date: date, limit: 100 },
      auth,
    )
  ).body.data;

  /** Waits for the event of `bookingId` at `version`; returns [webhook ms, notice ms] after `answeredAt`. */
  async function measure(bookingId: string, version: number, answeredAt: number) {
    let webhookAt: number | undefined;
    let noticeAt: number | undefined;
    const deadline = Date.now() + 10_000;
    while ((webhookAt === undefined || noticeAt === undefined) && Date.now() < deadline) {
      const hit = receiver.deliveries.find(
        (d) => d.body.data.booking_id === bookingId && d.body.data.version === version,
      );
      webhookAt ??= hit?.at;
      if (noticeAt === undefined) {
        const text = await readFile(notices, 'utf8').catch(() => '');
        const lines = text.split('\n').filter((l) => l.includes(bookingId));
        if (lines.length >= version) noticeAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    if (webhookAt === undefined || noticeAt === undefined) throw new Error(`no event for ${bookingId}`);
    webhookMs.push(webhookAt - answeredAt);
    noticeMs.push(noticeAt - answeredAt);
  }

  for (const offer of offers.slice(0, samples)) {
    const body = {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      ...exampleTraveller,
    };
    const booked = await post(`${server.url}/api/flights/booking/create`, body, auth);
    if (booked.status !== 201) continue;
    await measure(booked.body.data.booking_id, 1, Date.now());
    await post(`${server.url}/api/flights/booking/cancel`, { booking_id: booked.body.data.booking_id }, auth);
    await measure(booked.body.data.booking_id, 2, Date.now());
  }

  const describe = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return `${name}: n=${sorted.length} min ${sorted[0]} p50 ${at(0.5)} p90 ${at(0.9)} max ${sorted.at(-1)} ms`;
  };
  console.log(describe('API answer -> webhook received', webhookMs));
  console.log(describe('API answer -> notice written', noticeMs));
} finally {
  await receiver.close();
  await server.stop();
}
