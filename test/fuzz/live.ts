import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { networkRoutes } from '#shared/flights/network.ts';
import { agentsCli } from '#test/helpers/local-server.ts';
import type { Operation, ServedDocument } from './document.ts';
import { flatten, type Schema, validArbitrary } from './json-schema.ts';
import type { RequestSpec } from './mutations.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

/** Sends `request` to `op` as the fuzzer does everywhere: the body text exactly as given. */
export async function send(
  baseUrl: string,
  op: Operation,
  text: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const response = await fetch(baseUrl + op.path, { method: op.method.toUpperCase(), headers, body: text });
  const responseText = await response.text();
  let body: Json;
  try {
    body = JSON.parse(responseText);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text: responseText, body };
}

/** The ADMIN whose session the fuzzer uses, and its agency. */
export interface FuzzAdmin {
  identifier: string;
  agencyId: string;
}

/** The dev server's demo agent (infra/local/bootstrap.ts): an ADMIN of demo-agency. */
const DEMO_ADMIN: FuzzAdmin = { identifier: 'agent@example.com', agencyId: 'demo-agency' };

const DAY = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const sample = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  return value as T;
};

/**
 * What valid requests need that a schema cannot give: a signed-in session, live offers, real
 * bookings and a real cursor, taken from the running server. Also remembers everything the server
 * issued, so that mutations know what an id is.
 */
export class LiveState {
  readonly issued = new Set<string>();
  token = '';
  private readonly disposable: string[] = [];
  private readonly revoked: string[] = [];
  private offers: Json[] = [];
  /** Agents of the fuzzer's agency other than its session's own: what valid updates change. */
  readonly colleagues: string[] = [];
  private refill: Promise<void> | undefined;
  readonly bookings: { booking_id: string; pnr: string }[] = [];
  cursor: string | undefined;
  private identifierCounter = 0;

  readonly baseUrl: string;
  readonly dataDir: string;
  readonly document: ServedDocument;
  readonly seed: number;
  /** Called for every request the state itself sends (searches, sign-ins), so that they are checked too. */
  readonly observe: (op: Operation, request: RequestSpec, text: string, answer: Answer) => void;

  constructor(
    baseUrl: string,
    dataDir: string,
    document: ServedDocument,
    seed: number,
    observe: (op: Operation, request: RequestSpec, text: string, answer: Answer) => void,
  ) {
    this.baseUrl = baseUrl;
    this.dataDir = dataDir;
    this.document = document;
    this.seed = seed;
    this.observe = observe;
  }

  op(id: string): Operation {
    const op = this.document.operations.find((o) => o.id === id);
    if (!op) throw new Error(`the served document has no operation ${id}`);
    return op;
  }

  private async call(id: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const op = this.op(id);
    const request: RequestSpec = { body, headers: { 'content-type': 'application/json', ...headers } };
    const text = JSON.stringify(body);
    const answer = await send(this.baseUrl, op, text, request.headers);
    this.observe(op, request, text, answer);
    return answer;
  }

  /** send-otp, the code from `<DATA_DIR>/outbox.jsonl`, verify-otp: a session token. */
  async signIn(identifier: string): Promise<string> {
    const sent = await this.call('sendOtp', { identifier, type: 'EMAIL' });
    if (sent.status !== 202) throw new Error(`send-otp for ${identifier}: ${sent.status} ${sent.text}`);
    let code: string | undefined;
    for (let attempt = 0; attempt < 50 && !code; attempt++) {
      const outbox = await readFile(join(this.dataDir, 'outbox.jsonl'), 'utf8').catch(() => '');
      code = outbox
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { to: string; code: string })
        .filter((entry) => entry.to === identifier)
        .at(-1)?.code;
      if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const verified = await this.call('verifyOtp', { identifier, code });
    const token = verified.body?.data?.verification_token;
    if (verified.status !== 200 || typeof token !== 'string') {
      throw new Error(`verify-otp for ${identifier}: ${verified.status} ${verified.text}`);
    }
    this.issued.add(token);
    return token;
  }

  /**
   * `admin`'s session for everything (the demo agent unless given), and `extraAgents` more agents of its
   * agency (registered with the agents CLI) whose sessions logout may revoke. Then two bookings and a
   * cursor for get, list and cancel.
   */
  async prepare(extraAgents: number, admin: FuzzAdmin = DEMO_ADMIN): Promise<void> {
    const run = `${this.seed >>> 0}-${Date.now().toString(36)}`;
    const extra = Array.from({ length: extraAgents }, (_, i) => `fuzz-logout-${run}-${i}@example.com`);
    const registered = await Promise.all(
      extra.map((identifier) =>
        agentsCli(this.dataDir, 'add', identifier, '--name', 'Fuzz Logout', '--agency', admin.agencyId).then(
          (r) => (r.code === 0 ? identifier : undefined),
        ),
      ),
    );
    this.token = await this.signIn(admin.identifier);
    for (let i = 0; i < 3; i++) {
      const added = await this.call(
        'agencyAgentsCreate',
        { identifier: `fuzz-colleague-${run}-${i}@example.com`, type: 'EMAIL', name: 'Fuzz Colleague' },
        this.auth(),
      );
      if (added.status === 201 && typeof added.body?.data?.id === 'string') {
        this.colleagues.push(added.body.data.id);
        this.issued.add(added.body.data.id);
      }
    }
    for (const identifier of registered) if (identifier) this.disposable.push(await this.signIn(identifier));
    for (let i = 0; i < 3; i++) {
      const offer = await this.takeOffer();
      const created = await this.call('bookingCreate', this.bookingBody(offer, this.seed + i), this.auth());
      if (created.status === 201) this.remember(created.body.data);
    }
    const listed = await this.call('bookingList', { limit: 1 }, this.auth());
    if (typeof listed.body?.data === 'object') this.rememberList(listed.body);
  }

  auth(token = this.token): Record<string, string> {
    return { authorization: `Bearer ${token}` };
  }

  /** A token logout may revoke: a fresh one while any is left, else one already revoked. */
  logoutToken(): { token: string; valid: boolean } {
    const token = this.disposable.shift();
    if (token) {
      this.revoked.push(token);
      return { token, valid: true };
    }
    return { token: this.revoked.at(-1) ?? 'none', valid: false };
  }

  remember(booking: Json): void {
    if (typeof booking?.booking_id !== 'string') return;
    this.issued.add(booking.booking_id);
    this.issued.add(booking.pnr);
    this.bookings.push({ booking_id: booking.booking_id, pnr: booking.pnr });
  }

  rememberList(body: Json): void {
    if (typeof body?.meta?.next_cursor === 'string') {
      this.cursor = body.meta.next_cursor;
      this.issued.add(body.meta.next_cursor);
    }
  }

  rememberOffers(offers: Json[]): void {
    for (const offer of offers) if (typeof offer?.id === 'string') this.issued.add(offer.id);
    this.offers.push(...offers);
  }

  /** A search body: generated from the schema, with airports the network serves and dates in the window. */
  searchBody(seed: number): Record<string, unknown> {
    const op = this.op('search');
    const generated = sample(validArbitrary(this.document.doc, op.requestSchema), seed) as Record<
      string,
      unknown
    >;
    const meaning = fc.record({
      route: fc.constantFrom(...networkRoutes().slice(0, 40)),
      reverse: fc.boolean(),
      days: fc.integer({ min: 2, max: 320 }),
      stay: fc.option(fc.integer({ min: 0, max: 8 }), { freq: 4 }),
      adults: fc.integer({ min: 1, max: 3 }),
      children: fc.integer({ min: 0, max: 2 }),
      infants: fc.integer({ min: 0, max: 1 }),
    });
    const m = sample(meaning, seed ^ 0x5eed);
    const departure = Date.now() + m.days * DAY;
    const body: Record<string, unknown> = {
      ...generated,
      origin: m.reverse ? m.route.b : m.route.a,
      destination: m.reverse ? m.route.a : m.route.b,
      departure_date: isoDate(departure),
      adults: m.adults,
      children: m.children,
      infants: Math.min(m.infants, m.adults),
    };
    // docs/API.md §4.1's round trips, whether or not the document lists return_date yet.
    if (m.stay !== null && m.days + m.stay <= 330) body.return_date = isoDate(departure + m.stay * DAY);
    else delete body.return_date;
    // A single trip: the document's multi-city alternative (slices) goes without these fields.
    delete body.slices;
    return body;
  }

  /**
   * An offer no one has booked yet: fresh from a search when the pool is empty. Workers share the
   * pool, and a round-trip search on a thin route may find only a pair or two, so a worker may come
   * away empty-handed a few times before a search finds enough.
   */
  async takeOffer(): Promise<Json> {
    let last = '';
    for (let attempt = 0; attempt < 20; attempt++) {
      const offer = this.offers.shift();
      if (offer) return offer;
      this.refill ??= (async () => {
        const body = { ...this.searchBody(this.seed + this.offers.length + attempt * 31), limit: 100 };
        const answer = await this.call('search', body, this.auth());
        last = `${answer.status} ${answer.text.slice(0, 200)}`;
        if (answer.status === 200 && Array.isArray(answer.body?.data)) this.rememberOffers(answer.body.data);
      })().finally(() => {
        this.refill = undefined;
      });
      await this.refill;
    }
    throw new Error(`no offers: twenty searches in a row left none (last: ${last})`);
  }

  /** The create body for `offer`: its counts of passengers, valid travellers, as search quoted it. */
  bookingBody(offer: Json, seed: number): Record<string, unknown> {
    const op = this.op('bookingCreate');
    const passengerSchema = flatten(
      this.document.doc,
      flatten(this.document.doc, op.requestSchema).properties?.passengers,
    ).items as Schema;
    const departure = Date.parse(offer.outbound.segments[0].departure_at);
    const bornYearsBefore = (years: number) => isoDate(departure - years * 365.25 * DAY);
    const party = offer.passengers ?? { adults: 1, children: 0, infants: 0 };
    const types = [
      ...Array.from({ length: party.adults }, () => ['ADULT', bornYearsBefore(35)]),
      ...Array.from({ length: party.children }, () => ['CHILD', bornYearsBefore(7)]),
      ...Array.from({ length: party.infants }, () => ['INFANT', bornYearsBefore(1)]),
    ];
    const generated = sample(
      fc.array(validArbitrary(this.document.doc, passengerSchema), {
        minLength: types.length,
        maxLength: types.length,
      }),
      seed,
    ) as Record<string, unknown>[];
    const passengers = types.map(([pax_type, born_on], i) => ({ ...generated[i], pax_type, born_on }));
    return {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      passengers,
      contact: { email: 'ada@example.com', phone: '+447700900123' },
    };
  }

  /** A fresh identifier, so that OTP throttles per identifier are not what every send meets. */
  identifier(seed: number, type: 'EMAIL' | 'PHONE'): string {
    this.identifierCounter += 1;
    const n = `${this.seed >>> 0}${this.identifierCounter}`.slice(-7).padStart(7, '0');
    return type === 'EMAIL' ? `fuzz-${seed >>> 0}-${this.identifierCounter}@example.com` : `+4477009${n}`;
  }
}
