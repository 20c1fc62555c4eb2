import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import {
  agencyBookings,
  book,
  bookingBody,
  inventoryItem,
  type Json,
  searchOffers as searchOn,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

let session: TestSession;
let advance: (ms: number) => void;
let date: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
});

afterEach(() => {
  vi.restoreAllMocks();
  context.db.middlewareStack.remove('inject');
});

const inventory = (flightNumber: string, on = date) => inventoryItem(flightNumber, on);
const sell = (flightNumber: string, seats: number, cabin = 'Y') =>
  sellSeats(flightNumber, date, seats, cabin);

const flightNumberOf = (offer: Json) => offer.outbound.segments[0].flight_number;
const searchOffers = (s: TestSession, body: Record<string, unknown> = {}) =>
  searchOn(s, { departure_date: date, ...body });

describe('fn: booking create', () => {
  it('books the offer: 201 with the booking, the flight as quoted, and the seats taken', async () => {
    const [offer] = await searchOffers(session, { adults: 2, children: 1, infants: 1 });

    const answer = await book(session, bookingBody(offer));

    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual({
      booking_id: expect.stringMatching(/^bkg_[0-9A-HJKMNP-TV-Z]{26}$/),
      pnr: expect.stringMatching(/^[A-Z]{6}$/),
      status: 'CONFIRMED',
      total_price: offer.total_price,
      currency: 'EUR',
      created_at: '2026-12-01T09:00:00Z',
      updated_at: '2026-12-01T09:00:00Z',
      version: 1,
      created_by: { id: session.agent.id, name: session.agent.name },
      flight: offer,
      passengers: bookingBody(offer).passengers,
      contact: { email: 'traveller@example.com', phone: '+447700900123' },
    });
    expect(await inventory(flightNumberOf(offer))).toMatchObject({ sold_Y: 3 });
  });

  it('books a one-stop offer, taking seats on both flights', async () => {
    const offers = await searchOffers(session, { max_connections: 1, limit: 100 });
    const connection = offers.find((o: Json) => o.outbound.stops === 1);

    const answer = await book(session, bookingBody(connection));

    expect(answer.status).toBe(201);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: bookingKey(answer.body.data.booking_id) }),
    );
    expect(Item?.segments.map((s: Json) => s.flight_number)).toEqual(
      connection.outbound.segments.map((s: Json) => s.flight_number),
    );
    for (const segment of Item?.segments ?? []) {
      expect(await inventory(segment.flight_number, segment.date)).toMatchObject({ sold_Y: 1 });
    }
  });

  it('costs two DynamoDB calls, three with an Idempotency-Key (session check included)', async () => {
    const [a, b] = await searchOffers(session);
    const { calls } = recordDynamoCalls(context.db, 'inject');

    await book(session, bookingBody(a));
    const plain = calls.splice(0);
    await book(session, bookingBody(b), { 'Idempotency-Key': 'k-rt' });

    expect(plain).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(calls).toEqual(['GetItemCommand', 'PutItemCommand', 'TransactWriteItemsCommand']);
  });

  describe('validation', () => {
    it.each([
      [
        'a name with digits',
        (b: Json) => {
          b.passengers[0].first_name = 'Ada2';
        },
        ['passengers.0.first_name'],
      ],
      [
        'a 36-letter name',
        (b: Json) => {
          b.passengers[0].last_name = 'L'.repeat(36);
        },
        ['passengers.0.last_name'],
      ],
      [
        'an unknown title',
        (b: Json) => {
          b.passengers[0].title = 'sir';
        },
        ['passengers.0.title'],
      ],
      [
        'an unknown gender',
        (b: Json) => {
          b.passengers[0].gender = 'q';
        },
        ['passengers.0.gender'],
      ],
      [
        'an unknown passenger type',
        (b: Json) => {
          b.passengers[0].pax_type = 'SENIOR';
        },
        ['passengers.0.pax_type'],
      ],
      [
        'an impossible birth date',
        (b: Json) => {
          b.passengers[0].born_on = '1980-02-30';
        },
        ['passengers.0.born_on'],
      ],
      [
        'a birth date in the future',
        (b: Json) => {
          b.passengers[0].born_on = '2027-01-01';
        },
        ['passengers.0.born_on'],
      ],
      [
        'an adult aged 11',
        (b: Json) => {
          b.passengers[0].born_on = '2015-06-01';
        },
        ['passengers.0.born_on'],
      ],
      [
        'a missing passenger',
        (b: Json) => {
          b.passengers.pop();
        },
        ['passengers'],
      ],
      [
        'a bad e-mail',
        (b: Json) => {
          b.contact.email = 'nope';
        },
        ['contact.email'],
      ],
      [
        'a national phone number',
        (b: Json) => {
          b.contact.phone = '07700900123';
        },
        ['contact.phone'],
      ],
      [
        'three decimals',
        (b: Json) => {
          b.total_price = 1.005;
        },
        ['total_price'],
      ],
      [
        'no flight details',
        (b: Json) => {
          b.flight_details = undefined;
        },
        ['flight_details'],
      ],
      [
        'no contact',
        (b: Json) => {
          b.contact = undefined;
        },
        ['contact'],
      ],
    ])('refuses %s with 400 details and books nothing', async (_case, mutate, paths) => {
      const [offer] = await searchOffers(session);
      const body = bookingBody(offer);
      mutate(body);

      const answer = await book(session, body);

      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: Json) => d.path)).toEqual(paths);
      expect(await inventory(flightNumberOf(offer))).toBeUndefined();
    });

    it('accepts accented Latin names, hyphens and apostrophes', async () => {
      const [offer] = await searchOffers(session);
      const body = bookingBody(offer);
      body.passengers[0] = {
        ...body.passengers[0],
        first_name: 'Zoë-Anaïs',
        last_name: "O'Brien Núñez",
      } as never;

      expect((await book(session, body)).status).toBe(201);
    });

    it('checks children and infants by age on the first departure date', async () => {
      const [offer] = await searchOffers(session, { adults: 1, children: 1, infants: 1 });
      const body = bookingBody(offer);
      const yearsBefore = (years: number) => `${Number(date.slice(0, 4)) - years}${date.slice(4)}`;
      (body.passengers[1] as Json).born_on = yearsBefore(12); // 12 on the departure date: too old for a CHILD
      (body.passengers[2] as Json).born_on = yearsBefore(2); // 2 on the departure date: too old for an INFANT

      const answer = await book(session, body);

      expect(answer.body.error.details).toEqual([
        {
          path: 'passengers.1.born_on',
          message: 'a CHILD must be 2 to 11 years old on the first departure date',
        },
        { path: 'passengers.2.born_on', message: 'an INFANT must be under 2 on the first departure date' },
      ]);
    });
  });

  describe('offer checks, in order', () => {
    it.each([
      ['a malformed id', 'not-an-offer'],
      ['an id never issued', `off_${'A'.repeat(120)}`],
    ])('answers 404 FLIGHT_NOT_FOUND for %s', async (_case, id) => {
      const [offer] = await searchOffers(session);

      const answer = await book(session, { ...bookingBody(offer), flight_id: id });

      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('FLIGHT_NOT_FOUND');
    });

    it.each([
      ['an offer never issued', `off_${'A'.repeat(120)}`],
      ['a malformed offer id', 'not-an-offer'],
    ])(
      'answers a birth date in the future 400 before the 404 of %s (validation first)',
      async (_case, id) => {
        const [offer] = await searchOffers(session);
        const body = { ...bookingBody(offer), flight_id: id };
        body.passengers[0] = { ...body.passengers[0], born_on: '2027-01-01' } as never;

        const answer = await book(session, body);

        expect(answer.status).toBe(400);
        expect(answer.body.error.details).toEqual([
          { path: 'passengers.0.born_on', message: 'must be in the past' },
        ]);
      },
    );

    it("answers 404 FLIGHT_NOT_FOUND for another agency's offer", async () => {
      const other = await signIn({ agencyId: 'other-agency' });
      const [theirs] = await searchOffers(other);

      const answer = await book(session, bookingBody(theirs));

      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('FLIGHT_NOT_FOUND');
    });

    it('answers 410 OFFER_EXPIRED 20 minutes after the search', async () => {
      const [offer] = await searchOffers(session);
      advance(20 * 60_000);

      const answer = await book(session, bookingBody(offer));

      expect(answer.status).toBe(410);
      expect(answer.body.error.code).toBe('OFFER_EXPIRED');
    });

    it('answers 410 OFFER_EXPIRED to a second booking of the same offer', async () => {
      const [offer] = await searchOffers(session);

      const first = await book(session, bookingBody(offer));
      const second = await book(session, bookingBody(offer));

      expect(first.status).toBe(201);
      expect(second.status).toBe(410);
      expect(second.body.error.code).toBe('OFFER_EXPIRED');
      expect(await inventory(flightNumberOf(offer))).toMatchObject({ sold_Y: 1 });
    });

    it('answers 409 FLIGHT_MISMATCH with one detail per differing field', async () => {
      const [offer, other] = await searchOffers(session);
      const body = bookingBody(offer);
      body.flight_details = structuredClone(offer);
      body.flight_details.id = other.id;
      body.flight_details.total_price = offer.total_price - 10;
      body.flight_details.outbound.segments[0].flight_number = 'XX1';
      body.flight_details.outbound.segments[0].departure_at = '2026-12-02T23:59:00Z';
      body.currency = 'USD';

      const answer = await book(session, body);

      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('FLIGHT_MISMATCH');
      expect(answer.body.error.details).toEqual([
        { path: 'flight_details.id', expected: offer.id, received: other.id },
        { path: 'flight_details.total_price', expected: offer.total_price, received: offer.total_price - 10 },
        { path: 'currency', expected: 'EUR', received: 'USD' },
        {
          path: 'flight_details.outbound.segments.0.flight_number',
          expected: flightNumberOf(offer),
          received: 'XX1',
        },
        {
          path: 'flight_details.outbound.segments.0.departure_at',
          expected: offer.outbound.segments[0].departure_at,
          received: '2026-12-02T23:59:00Z',
        },
      ]);
    });

    it('accepts the same instant written another way', async () => {
      const [offer] = await searchOffers(session);
      const body = bookingBody(offer);
      body.flight_details = structuredClone(offer);
      body.flight_details.outbound.segments[0].departure_at = offer.outbound.segments[0].departure_at.replace(
        'Z',
        '+00:00',
      );

      expect((await book(session, body)).status).toBe(201);
    });
  });

  describe('seats and fares', () => {
    it('answers 409 PRICE_CHANGED with a fresh offer that then books as is', async () => {
      const [offer] = await searchOffers(session);
      await sell(flightNumberOf(offer), 42); // the cheapest bucket (20 % of 210 economy seats) is gone

      const changed = await book(session, bookingBody(offer));

      expect(changed.status).toBe(409);
      expect(changed.body.error.code).toBe('PRICE_CHANGED');
      const details = changed.body.error.details;
      expect(details).toEqual({
        previous_total_price: offer.total_price,
        total_price: expect.any(Number),
        currency: 'EUR',
        flight: expect.objectContaining({
          id: expect.stringMatching(/^off_/),
          total_price: details.total_price,
        }),
      });
      expect(details.total_price).toBeGreaterThan(offer.total_price);
      expect(details.flight.id).not.toBe(offer.id);

      const rebooked = await book(session, bookingBody(details.flight));
      expect(rebooked.status).toBe(201);
      expect(rebooked.body.data.total_price).toBe(details.total_price);
      expect(await inventory(flightNumberOf(offer))).toMatchObject({ sold_Y: 43 });
    });

    it('answers 409 SOLD_OUT when the party no longer fits, and books nothing', async () => {
      const [offer] = await searchOffers(session, { adults: 2 });
      await sell(flightNumberOf(offer), 209);

      const answer = await book(session, bookingBody(offer));

      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('SOLD_OUT');
      expect(await inventory(flightNumberOf(offer))).toMatchObject({ sold_Y: 209 });
      expect(await agencyBookings(session.agent.agency_id)).toEqual([]);
    });

    it('never oversells: 24 agents race for the 8 first-class seats and exactly 8 book', async () => {
      const agents = await Promise.all(Array.from({ length: 24 }, () => signIn({ agencyId: 'racers' })));
      const searchFirst = (s: TestSession) => searchOffers(s, { travel_class: 'FIRST' });
      const [target] = await searchFirst(agents[0] as TestSession);
      const wanted = flightNumberOf(target);

      // Each agent books, following PRICE_CHANGED to the fresh offer, until it succeeds or sells out.
      const outcomes = await Promise.all(
        agents.map(async (agent) => {
          let offer = (await searchFirst(agent)).find((o: Json) => flightNumberOf(o) === wanted);
          for (let i = 0; i < 10; i++) {
            const answer = await book(agent, bookingBody(offer));
            if (answer.status !== 409 || answer.body.error.code !== 'PRICE_CHANGED')
              return answer.body.error?.code ?? 'BOOKED';
            offer = answer.body.error.details.flight;
          }
          return 'GAVE_UP';
        }),
      );

      expect(outcomes.filter((o) => o === 'BOOKED')).toHaveLength(8);
      expect(outcomes.filter((o) => o === 'SOLD_OUT')).toHaveLength(16);
      expect(await inventory(wanted)).toMatchObject({ sold_F: 8 });
      const bookings = await agencyBookings('racers');
      expect(bookings).toHaveLength(8);
      expect(new Set(bookings.map((b) => b.pnr)).size).toBe(8);
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeated request with the stored booking, marked as replayed, and books once', async () => {
      const [offer] = await searchOffers(session);
      const headers = { 'Idempotency-Key': 'order-42' };

      const first = await book(session, bookingBody(offer), headers);
      const again = await book(session, bookingBody(offer), headers);

      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['Idempotent-Replayed']).toBe('true');
      expect(first.headers['Idempotent-Replayed']).toBeUndefined();
      expect(await agencyBookings(session.agent.agency_id)).toHaveLength(1);
    });

    it('answers 422 when the key comes back with another body', async () => {
      const [offer, other] = await searchOffers(session);
      const headers = { 'Idempotency-Key': 'order-43' };

      await book(session, bookingBody(offer), headers);
      const reused = await book(session, bookingBody(other), headers);

      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('makes one booking from 10 parallel requests with one key', async () => {
      const [offer] = await searchOffers(session);
      const headers = { 'Idempotency-Key': 'order-44' };

      const answers = await Promise.all(
        Array.from({ length: 10 }, () => book(session, bookingBody(offer), headers)),
      );

      const created = answers.filter((a) => a.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((a) => a.body.data.booking_id)).size).toBe(1);
      for (const answer of answers.filter((a) => a.status !== 201)) {
        expect(answer.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
        expect(answer.status).toBe(409);
      }
      expect(await agencyBookings(session.agent.agency_id)).toHaveLength(1);
      expect(await inventory(flightNumberOf(offer))).toMatchObject({ sold_Y: 1 });
    });

    it('replays a definite refusal too', async () => {
      const [offer] = await searchOffers(session);
      await sell(flightNumberOf(offer), 210);
      const headers = { 'Idempotency-Key': 'order-45' };

      const first = await book(session, bookingBody(offer), headers);
      await sell(flightNumberOf(offer), 0);
      const again = await book(session, bookingBody(offer), headers);

      expect(first.body.error.code).toBe('SOLD_OUT');
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('SOLD_OUT');
      expect(again.headers['Idempotent-Replayed']).toBe('true');
    });

    it('scopes keys to the agent', async () => {
      const colleague = await signIn({ agencyId: session.agent.agency_id });
      const [mine] = await searchOffers(session);
      const [theirs] = await searchOffers(colleague);
      const headers = { 'Idempotency-Key': 'shared-key' };

      const a = await book(session, bookingBody(mine), headers);
      const b = await book(colleague, bookingBody(theirs), headers);

      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body.data.booking_id).not.toBe(a.body.data.booking_id);
    });

    it('refuses a key that is not 1-255 printable ASCII characters', async () => {
      const [offer] = await searchOffers(session);

      const answer = await book(session, bookingBody(offer), { 'Idempotency-Key': 'x'.repeat(256) });

      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual([
        { path: 'Idempotency-Key', message: 'must be 1-255 printable ASCII characters' },
      ]);
    });
  });

  it('answers 503 and writes nothing when the transaction fails, then books once on retry', async () => {
    const [offer] = await searchOffers(session);
    const headers = { 'Idempotency-Key': 'order-503' };
    context.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === 'TransactWriteItemsCommand') {
          throw Object.assign(new Error('Internal server error'), {
            name: 'InternalServerError',
            $fault: 'server',
            $metadata: {},
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'inject' },
    );

    const failed = await book(session, bookingBody(offer), headers);
    context.db.middlewareStack.remove('inject');

    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await inventory(flightNumberOf(offer))).toBeUndefined();
    expect(await agencyBookings(session.agent.agency_id)).toEqual([]);

    const retried = await book(session, bookingBody(offer), headers);
    const replayed = await book(session, bookingBody(offer), headers);
    expect(retried.status).toBe(201);
    expect(replayed.headers['Idempotent-Replayed']).toBe('true');
    expect(await agencyBookings(session.agent.agency_id)).toHaveLength(1);
  });
});
