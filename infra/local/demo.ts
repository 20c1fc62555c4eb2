/**
 * `npm run demo`: the whole journey against a running `npm start` — sign in with the code from the
 * outbox, search a return journey, book it, retrieve by PNR, cancel, sign out — printing each request
 * and its answer.
 * Uses DATA_DIR (default `.data`) to find the server and its outbox; API overrides the URL.
 */

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { DEMO_AGENT } from './bootstrap.ts';
import { findRunningLocalStack, resolveDataDir } from './local-stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: the demo reads answers field by field, as a client would
type Json = any;

const dataDir = resolveDataDir();
const api = process.env.API || (await findRunningLocalStack(dataDir))?.api_url;
if (!api) {
  console.error(`No API running on ${dataDir}: start it with "npm start" (or set API).`);
  process.exit(1);
}

let token = '';

async function call(
  path: string,
  body: unknown,
  summary: (data: Json) => string,
  headers: Record<string, string> = {},
) {
  console.log(`\n→ POST ${path} ${JSON.stringify(body).slice(0, 110)}`);
  const response = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token && { Authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json;
  const retryAfter = Number(response.headers.get('retry-after') ?? 0);
  console.log(
    `← ${response.status} ${answer.success ? summary(answer.data) : `${answer.error.code}: ${answer.error.message}`}`,
  );
  return { status: response.status, answer, retryAfter };
}

async function latestCode(identifier: string, after: number): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const text = await readFile(join(dataDir, 'outbox.jsonl'), 'utf8').catch(() => '');
    const entries = text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    const entry = entries.filter((e) => e.to === identifier).at(-1);
    if (entry && entries.length > after) return entry.code;
    await sleep(100);
  }
  throw new Error('no code arrived in the outbox');
}

const outboxSize = async () =>
  (await readFile(join(dataDir, 'outbox.jsonl'), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
    .length;

const identifier = DEMO_AGENT.identifier;
console.log(`Flight booking API demo against ${api}`);

// 1. Sign in: a code by e-mail (here: the local outbox), then the token.
let before = await outboxSize();
let sent = await call(
  '/api/auth/send-otp',
  { identifier, type: 'EMAIL' },
  (d) => `code sent, valid ${d.expires_in} s`,
);
if (sent.status === 429) {
  console.log(`  (codes for ${identifier} are throttled: waiting ${sent.retryAfter} s)`);
  await sleep(sent.retryAfter * 1000);
  before = await outboxSize();
  sent = await call(
    '/api/auth/send-otp',
    { identifier, type: 'EMAIL' },
    (d) => `code sent, valid ${d.expires_in} s`,
  );
}
const code = await latestCode(identifier, before);
console.log(`  (code ${code} read from the outbox)`);
const verified = await call(
  '/api/auth/verify-otp',
  { identifier, code },
  (d) => `signed in as ${d.agent.name} (${d.agent.agency_id})`,
);
token = verified.answer.data.verification_token;

// 2. Search a return journey: London Heathrow to New York a week from today, back a week later.
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const segments = (direction: Json) =>
  direction.segments
    .map((s: Json) => `${s.flight_number} ${s.origin}-${s.destination} ${s.departure_at}`)
    .join(' + ');
const search = await call(
  '/api/flights/search',
  { origin: 'LHR', destination: 'JFK', departure_date: day(7), return_date: day(14), limit: 5 },
  (data: Json[]) =>
    [
      `${data.length} round trips, cheapest first:`,
      ...data.map(
        (f) => `    ${f.total_price} ${f.currency}  ${segments(f.outbound)}  ⇄  ${segments(f.inbound)}`,
      ),
    ].join('\n'),
);
const offer = search.answer.data[0];

// 3. Book the cheapest return journey for one adult, safely retryable with an Idempotency-Key.
const booked = await call(
  '/api/flights/booking/create',
  {
    flight_id: offer.id,
    flight_details: offer,
    total_price: offer.total_price,
    currency: offer.currency,
    ...exampleTraveller,
  },
  (d) => `${d.status}: PNR ${d.pnr}, booking ${d.booking_id}, ${d.total_price} ${d.currency}`,
  { 'Idempotency-Key': randomUUID() },
);
const booking = booked.answer.data;

// 4. Retrieve it by PNR, 5. cancel it.
await call(
  '/api/flights/booking/get',
  { pnr: booking.pnr },
  (d) =>
    `${d.pnr} is ${d.status}, ${d.passengers.length} passenger(s), out ${d.flight.outbound.segments[0].departure_at}, back ${d.flight.inbound.segments[0].departure_at}`,
);
await call(
  '/api/flights/booking/cancel',
  { booking_id: booking.booking_id },
  (d) => `${d.pnr} is ${d.status} at ${d.cancelled_at}`,
);
// 6. Hold the next-cheapest return journey while the customer decides, then confirm it at its price.
const second = search.answer.data[1];
const held = await call(
  '/api/flights/booking/create',
  {
    flight_id: second.id,
    flight_details: second,
    total_price: second.total_price,
    currency: second.currency,
    hold: true,
    ...exampleTraveller,
  },
  (d) => `${d.status}: PNR ${d.pnr} until ${d.payment_required_by}, ${d.total_price} ${d.currency}`,
);
const hold = held.answer.data;
await call(
  '/api/flights/booking/confirm',
  { booking_id: hold.booking_id, total_price: hold.total_price, currency: hold.currency },
  (d) => `${d.pnr} is ${d.status} (version ${d.version})`,
);
await call(
  '/api/flights/booking/cancel',
  { booking_id: hold.booking_id },
  (d) => `${d.pnr} is ${d.status}, refunded ${d.refund?.amount} ${d.refund?.currency}`,
);

// 7. Sign out.
await call('/api/auth/logout', {}, () => 'signed out');
console.log('\nDone.');
