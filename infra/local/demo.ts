/**
 * `npm run demo [-- --agent <identifier>]`: the whole journey against a running `npm start` — sign in
 * with the code from the outbox, search a return journey, book it, retrieve by PNR, cancel, hold and
 * confirm another, sign out — printing each request and its answer. Signs in the demo agent unless
 * `--agent` names another registered agent (e-mail or phone). Stops at the first unexpected answer,
 * showing it; when the agent's codes are throttled, says why and how long it waits.
 * Uses DATA_DIR (default `.data`) to find the server and its outbox; API overrides the URL.
 */

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { DEMO_AGENT } from './bootstrap.ts';
import { findRunningLocalStack, resolveDataDir } from './local-stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: the demo reads answers field by field, as a client would
type Json = any;

const usage = `Usage: npm run demo [-- --agent <identifier>]

Runs the whole journey against the running npm start: sign in, search a return journey, book it, find
it by PNR, cancel it, hold and confirm another, sign out.

Options:
  --agent <identifier>   sign in as this registered agent (e-mail address or E.164 phone number);
                         default ${DEMO_AGENT.identifier}. Add one with
                         npm run agents -- add <identifier> --name "<name>" --agency ${DEMO_AGENT.agencyId}
  -h, --help             print this text
`;

function options() {
  try {
    const { values } = parseArgs({
      options: { agent: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    const agent = normalizeIdentifier(values.agent ?? DEMO_AGENT.identifier);
    if (!agent.ok) throw new Error(`--agent ${agent.message}`);
    return agent;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}
const agent = options();

const dataDir = resolveDataDir();
const api = process.env.API || (await findRunningLocalStack(dataDir))?.api_url;
if (!api) {
  console.error(`No API running on ${dataDir}: start it with "npm start" (or set API).`);
  process.exit(1);
}

let token = '';

/**
 * POSTs `body` to `path` and prints a one-line summary of the answer. An answer other than 2xx (or a
 * status in `allowed`) stops the demo with the answer's error: every later step needs this one.
 */
async function call(
  path: string,
  body: unknown,
  summary: (data: Json) => string,
  { headers = {}, allowed = [] }: { headers?: Record<string, string>; allowed?: number[] } = {},
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
  }).catch(() => {
    console.error(`No answer from ${api}: is npm start still running?`);
    process.exit(1);
  });
  const answer = (await response.json().catch(() => ({}))) as Json;
  // At least a second: a 429 always carries Retry-After, and a wait of 0 would ask again at once.
  const retryAfter = Math.max(1, Number(response.headers.get('retry-after') ?? 0) || 0);
  const error = answer.error ? `${answer.error.code}: ${answer.error.message}` : `HTTP ${response.status}`;
  console.log(`← ${response.status} ${answer.success ? summary(answer.data) : error}`);
  if (!answer.success && !allowed.includes(response.status)) {
    console.error(`\nThe demo stopped: ${path} answered ${response.status} ${error}`);
    process.exit(1);
  }
  return { status: response.status, answer, retryAfter };
}

/** Why a code request was throttled and when the next may go, in words a newcomer can act on. */
function explainThrottle(identifier: string, seconds: number): string {
  const wait = seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} minutes`;
  const until = new Date(Date.now() + seconds * 1000).toISOString().slice(11, 19);
  return [
    `  Codes for ${identifier} are throttled: one per 30 s and five an hour per identifier (two until it`,
    '  has signed in once), and the README walkthroughs sign this agent in too (or its agency has spent',
    `  its hourly budget of codes). The next code can be sent in ${wait} (at ${until} UTC): waiting.`,
    '  Ctrl-C stops it; to go on at once, sign in another agent:',
    `    npm run agents -- add demo2@example.com --name "Demo Two" --agency ${DEMO_AGENT.agencyId}`,
    '    npm run demo -- --agent demo2@example.com',
  ].join('\n');
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
  console.error(
    `\nThe demo stopped: no code for ${identifier} arrived in ${join(dataDir, 'outbox.jsonl')} within 5 s. ` +
      'Codes go only to agents registered on this server (npm run agents -- list shows them); ' +
      'any other identifier gets the same 202 and nothing is sent.',
  );
  process.exit(1);
}

const outboxSize = async () =>
  (await readFile(join(dataDir, 'outbox.jsonl'), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
    .length;

const { identifier, type } = agent;
console.log(`Flight booking API demo against ${api}, as ${identifier}`);

// 1. Sign in: a code by e-mail or SMS (here: the local outbox), then the token.
const sendCode = () =>
  call('/api/auth/send-otp', { identifier, type }, (d) => `code sent, valid ${d.expires_in} s`, {
    allowed: [429],
  });
let before = await outboxSize();
let sent = await sendCode();
while (sent.status === 429) {
  console.log(explainThrottle(identifier, sent.retryAfter));
  for (let left = sent.retryAfter; left > 0; left -= 60) {
    await sleep(Math.min(left, 60) * 1000);
    if (left > 60) console.log(`  … ${Math.ceil((left - 60) / 60)} minute(s) to go`);
  }
  before = await outboxSize();
  sent = await sendCode();
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
/** What a fare allows before departure, in a few words (docs/API.md §4.1, `conditions`). */
const refundTerms = (conditions: Json) => {
  const refund = conditions.refund_before_departure;
  if (!refund) return 'refund not stated';
  if (!refund.allowed) return 'non-refundable';
  return refund.penalty?.amount
    ? `refundable, fee ${refund.penalty.amount} ${refund.penalty.currency}`
    : 'refundable';
};
const search = await call(
  '/api/flights/search',
  { origin: 'LHR', destination: 'JFK', departure_date: day(7), return_date: day(14), limit: 5 },
  (data: Json[]) =>
    [
      `${data.length} round trips, cheapest first:`,
      ...data.map(
        (f) =>
          `    ${f.total_price} ${f.currency}  ${segments(f.outbound)}  ⇄  ${segments(f.inbound)}  (${refundTerms(f.conditions)})`,
      ),
    ].join('\n'),
);
if (search.answer.data.length < 2) {
  console.error('\nThe demo stopped: it needs two round trips to book and hold, and the search found fewer.');
  process.exit(1);
}
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
  { headers: { 'Idempotency-Key': randomUUID() } },
);
const booking = booked.answer.data;

// 4. Retrieve it by PNR, 5. ask what a cancel would refund, and cancel at exactly that refund.
await call(
  '/api/flights/booking/get',
  { pnr: booking.pnr },
  (d) =>
    `${d.pnr} is ${d.status}, ${d.passengers.length} passenger(s), out ${d.flight.outbound.segments[0].departure_at}, back ${d.flight.inbound.segments[0].departure_at}`,
);
const quoted = await call(
  '/api/flights/booking/refund-quote',
  { booking_id: booking.booking_id },
  (d) =>
    `a cancel now refunds ${d.refund.amount} ${d.refund.currency}${d.penalty ? ` (penalty ${d.penalty.amount} ${d.penalty.currency})` : ''}`,
);
await call(
  '/api/flights/booking/cancel',
  { booking_id: booking.booking_id, refund: quoted.answer.data.refund },
  (d) => `${d.pnr} is ${d.status} at ${d.cancelled_at}, refunded ${d.refund?.amount} ${d.refund?.currency}`,
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
