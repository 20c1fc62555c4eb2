/**
 * `npm run smoke -- --url <api url> --identifier <agent>`: proves a deployed stage (or `npm start`) end
 * to end, as an agent would use it — sign in (the code from a prompt, or from `--code-file`, locally the
 * outbox), search, book, quote the refund and cancel with it, hold another offer and confirm it, then
 * cancel that one too, and prove the event pipeline: a webhook endpoint is registered and pinged, and
 * the ping's `last_delivery` must show up in webhooks/list (written by the deliveries function after the
 * events function read the ping from the table's stream). Stops at the first failure with a clear
 * message and exit code 1; 2 for bad options. The agent must be an ADMIN (webhooks are ADMIN only).
 */

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';

// biome-ignore lint/suspicious/noExplicitAny: the smoke test reads answers field by field, as a client would
type Json = any;

/** SES's mailbox simulator: accepted, never bounces, and counts against neither quota nor reputation. */
const SIMULATOR_ADDRESS = 'success@simulator.amazonses.com';

const usage = `Usage: npm run smoke -- --url <api url> --identifier <agent> [options]

Signs in, searches, books, quotes the refund and cancels, holds and confirms another offer (then
cancels it), and proves the events and deliveries functions ran by pinging a webhook endpoint.
The agent must be an ADMIN. Exit code 0 when every step passed, 1 at the first failure, 2 for bad options.

Options:
  --url <url>              the API's URL (the stack's ApiUrl output, with or without the trailing /)
  --identifier <agent>     a registered ADMIN's e-mail address or E.164 phone number
  --code-file <path>       read the sign-in code from this local outbox file (npm start: .data/outbox.jsonl)
                           instead of asking for it
  --webhook-url <url>      a receiver that answers 2xx: the ping must be "delivered" there. Without it
                           the ping goes to <url>/api/smoke-webhook, which answers 404: an outcome with
                           that status proves both event functions ran without any public receiver
  --origin <IATA>          default LHR
  --destination <IATA>     default JFK
  --days-ahead <n>         departure date this many days from today, default 14
  --contact-email <addr>   the bookings' contact, who gets the traveller notices; default
                           ${SIMULATOR_ADDRESS} (SES's mailbox simulator)
  --wait-seconds <n>       how long to wait for the ping's delivery, default 90
  -h, --help               print this text
`;

class SmokeFailure extends Error {}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        url: { type: 'string' },
        identifier: { type: 'string' },
        'code-file': { type: 'string' },
        'webhook-url': { type: 'string' },
        origin: { type: 'string', default: 'LHR' },
        destination: { type: 'string', default: 'JFK' },
        'days-ahead': { type: 'string', default: '14' },
        'contact-email': { type: 'string', default: SIMULATOR_ADDRESS },
        'wait-seconds': { type: 'string', default: '90' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    if (!values.url || !URL.canParse(values.url)) throw new Error('--url must be the API URL');
    if (!values.identifier) throw new Error('--identifier is required');
    const agent = normalizeIdentifier(values.identifier);
    if (!agent.ok) throw new Error(`--identifier ${agent.message}`);
    const days = Number(values['days-ahead']);
    const wait = Number(values['wait-seconds']);
    if (!Number.isInteger(days) || days < 1)
      throw new Error('--days-ahead must be a whole number of days ≥ 1');
    if (!(wait > 0)) throw new Error('--wait-seconds must be > 0');
    return {
      api: values.url.replace(/\/+$/, ''),
      agent,
      codeFile: values['code-file'],
      webhookUrl: values['webhook-url'],
      origin: values.origin,
      destination: values.destination,
      days,
      contactEmail: values['contact-email'],
      waitMs: wait * 1000,
    };
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

const opts = options();
let token = '';

/** POSTs `body` to `path`; anything but the expected statuses is a failure of `step`. */
async function call(step: string, path: string, body: unknown, expect: number[] = [200], headers = {}) {
  const response = await fetch(`${opts.api}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token && { Authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(35_000),
  }).catch((error: Error) => {
    throw new SmokeFailure(`${step}: no answer from ${opts.api}${path} (${error.message})`);
  });
  const answer = (await response.json().catch(() => ({}))) as Json;
  if (!expect.includes(response.status)) {
    const error = answer.error ? `${answer.error.code}: ${answer.error.message}` : 'no JSON error';
    const retry = response.headers.get('retry-after');
    throw new SmokeFailure(
      `${step}: POST ${path} answered ${response.status} (${error})${retry ? `; retry after ${retry} s` : ''}`,
    );
  }
  return {
    status: response.status,
    data: answer.data as Json,
    error: answer.error?.code as string | undefined,
  };
}

const passed = (message: string) => console.log(`ok  ${message}`);

const outboxEntries = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { to: string; code: string });

/** The code sent after `before` entries of the outbox file, or the one typed at the prompt. */
async function readCode(before: number): Promise<string> {
  if (opts.codeFile) {
    for (let i = 0; i < 50; i++) {
      const entries = await outboxEntries(opts.codeFile);
      const entry = entries
        .slice(before)
        .filter((e) => e.to === opts.agent.identifier)
        .at(-1);
      if (entry) return entry.code;
      await sleep(100);
    }
    throw new SmokeFailure(
      `sign-in: no code for ${opts.agent.identifier} arrived in ${opts.codeFile} within 5 s (is the agent registered?)`,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const code = (await prompt.question(`Code sent to ${opts.agent.identifier}: `)).trim();
  prompt.close();
  return code;
}

const traveller = { ...exampleTraveller, contact: { ...exampleTraveller.contact, email: opts.contactEmail } };
const bookingOf = (offer: Json, extra: object = {}) => ({
  flight_id: offer.id,
  flight_details: offer,
  total_price: offer.total_price,
  currency: offer.currency,
  ...traveller,
  ...extra,
});

/** A `PENDING` booking (an external supplier's answer was late) read until it settles. */
async function settled(step: string, booking: Json): Promise<Json> {
  let current = booking;
  for (let waited = 0; current.status === 'PENDING' && waited < opts.waitMs; waited += 2000) {
    await sleep(2000);
    current = (await call(step, '/api/flights/booking/get', { booking_id: booking.booking_id })).data;
  }
  return current;
}

/** Quotes the refund and cancels with it: the cancel must give exactly the quote. */
async function cancelWithQuote(step: string, bookingId: string) {
  const quote = (
    await call(`${step} refund quote`, '/api/flights/booking/refund-quote', { booking_id: bookingId })
  ).data;
  const cancelled = (
    await call(`${step} cancel`, '/api/flights/booking/cancel', {
      booking_id: bookingId,
      refund: quote.refund,
    })
  ).data;
  if (cancelled.status !== 'CANCELLED') throw new SmokeFailure(`${step} cancel: status ${cancelled.status}`);
  passed(
    `${step}: cancelled ${cancelled.pnr}, refunded ${cancelled.refund.amount} ${cancelled.refund.currency}`,
  );
}

/** Registers an endpoint, pings it and waits for the ping's outcome in webhooks/list; deletes it. */
async function proveEvents() {
  const url = opts.webhookUrl ?? `${opts.api}/api/smoke-webhook`;
  const created = (await call('events: webhook create', '/api/agency/webhooks/create', { url }, [201])).data;
  try {
    const { event_id } = (
      await call('events: ping', '/api/agency/webhooks/ping', { webhook_id: created.id }, [202])
    ).data;
    const deadline = Date.now() + opts.waitMs;
    for (;;) {
      const list = (await call('events: webhooks list', '/api/agency/webhooks/list', {})).data;
      const last = list.find((w: Json) => w.id === created.id)?.last_delivery;
      if (last?.event_id === event_id) {
        const outcome = `${last.outcome}${last.http_status ? ` with HTTP ${last.http_status}` : ''}`;
        if (opts.webhookUrl ? last.outcome !== 'delivered' : last.http_status === undefined) {
          throw new SmokeFailure(`events: the ping to ${url} was ${outcome}`);
        }
        passed(`events: the ping reached ${url} (${outcome}): the events and deliveries functions ran`);
        return;
      }
      if (Date.now() > deadline) {
        throw new SmokeFailure(
          `events: no delivery of ping ${event_id} within ${opts.waitMs / 1000} s: see the runbook's ` +
            'EventsStreamStopped and DeliveryBacklog entries (events and deliveries functions, their queues)',
        );
      }
      await sleep(1000);
    }
  } finally {
    await call('events: webhook delete', '/api/agency/webhooks/delete', { webhook_id: created.id });
  }
}

/** Signs the operator's ADMIN in with a code from its mailbox (or the local outbox). */
async function signIn() {
  const { identifier, type } = opts.agent;
  console.log(`Smoke test of ${opts.api} as ${identifier}`);

  const before = opts.codeFile ? (await outboxEntries(opts.codeFile)).length : 0;
  await call('sign-in: send code', '/api/auth/send-otp', { identifier, type }, [202]);
  const code = await readCode(before);
  const verified = (await call('sign-in: verify code', '/api/auth/verify-otp', { identifier, code })).data;
  token = verified.verification_token;
  passed(`sign-in: ${verified.agent.name} (${verified.agent.role}, ${verified.agent.agency_id})`);
  if (verified.agent.role !== 'ADMIN') {
    throw new SmokeFailure(
      `sign-in: ${identifier} is ${verified.agent.role}; the events check needs an ADMIN`,
    );
  }
}

/** A search the supplier answers with at least two offers: one to book, one to hold. */
async function searchOffers(): Promise<Json[]> {
  const date = new Date(Date.now() + opts.days * 86_400_000).toISOString().slice(0, 10);
  const search = { origin: opts.origin, destination: opts.destination, departure_date: date, adults: 1 };
  const offers: Json[] = (await call('search', '/api/flights/search', { ...search, limit: 20 })).data;
  if (offers.length < 2) {
    throw new SmokeFailure(
      `search: ${offers.length} offers ${opts.origin}-${opts.destination} on ${date}; it needs two (try --origin/--destination/--days-ahead)`,
    );
  }
  passed(
    `search: ${offers.length} offers ${opts.origin}-${opts.destination} on ${date} (the supplier answers)`,
  );
  return offers;
}

/** Books `offer` outright, then cancels it through a refund quote. */
async function bookAndCancel(offer: Json) {
  const createdBooking = await call('book', '/api/flights/booking/create', bookingOf(offer), [201, 202], {
    'Idempotency-Key': randomUUID(),
  });
  const booking = await settled('book', createdBooking.data);
  if (booking.status !== 'CONFIRMED') throw new SmokeFailure(`book: status ${booking.status}`);
  passed(`book: ${booking.pnr} CONFIRMED, ${booking.total_price} ${booking.currency}`);
  await cancelWithQuote('book', booking.booking_id);
}

/** Holds the first of `offers` that may be held, confirms it, then cancels it through a refund quote. */
async function holdConfirmAndCancel(offers: Json[]) {
  let hold: Json;
  for (const offer of offers) {
    const held = await call(
      'hold',
      '/api/flights/booking/create',
      bookingOf(offer, { hold: true }),
      [201, 202, 409],
      {
        'Idempotency-Key': randomUUID(),
      },
    );
    if (held.status === 409 && held.error === 'HOLD_NOT_AVAILABLE') continue;
    if (held.status === 409)
      throw new SmokeFailure(`hold: POST /api/flights/booking/create answered 409 (${held.error})`);
    hold = await settled('hold', held.data);
    break;
  }
  if (hold?.status !== 'HELD')
    throw new SmokeFailure(
      `hold: no offer could be held (${hold?.status ?? 'every offer: 409 HOLD_NOT_AVAILABLE'})`,
    );
  passed(`hold: ${hold.pnr} HELD until ${hold.payment_required_by}`);
  const confirmed = (
    await call('hold confirm', '/api/flights/booking/confirm', {
      booking_id: hold.booking_id,
      total_price: hold.total_price,
      currency: hold.currency,
    })
  ).data;
  if (confirmed.status !== 'CONFIRMED') throw new SmokeFailure(`hold confirm: status ${confirmed.status}`);
  passed(`hold confirm: ${confirmed.pnr} CONFIRMED`);
  await cancelWithQuote('hold', hold.booking_id);
}

async function smoke() {
  await signIn();
  const offers = await searchOffers();
  await bookAndCancel(offers[0]);
  await holdConfirmAndCancel(offers.slice(1));
  await proveEvents();
  await call('sign out', '/api/auth/logout', {});
  passed('sign out');
  console.log('Smoke test passed.');
}

try {
  await smoke();
} catch (error) {
  if (!(error instanceof SmokeFailure)) throw error;
  console.error(`Smoke test FAILED at ${error.message}`);
  process.exitCode = 1;
}
