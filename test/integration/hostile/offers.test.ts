import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '#shared/flights/local-time.ts';
import {
  book,
  bookingBody,
  type Json,
  searchOffers,
  seatsSold,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { respelled, respellings } from '#test/helpers/respell.ts';
import type { TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

let session: TestSession;
let date: string;

beforeEach(async () => {
  ({ date, session } = await startBookingTest());
});

afterEach(() => {
  vi.restoreAllMocks();
});

const offers = (body: Record<string, unknown> = {}) =>
  searchOffers(session, { departure_date: date, ...body });

const sold = (offer: Json) => seatsSold(offer.outbound.segments[0].flight_number, date);

/** The create body for `offer` with the id spelled as `flightId` everywhere the id appears. */
const spelledAs = (offer: Json, flightId: string) => {
  const body = bookingBody(offer);
  return { ...body, flight_id: flightId, flight_details: { ...body.flight_details, id: flightId } };
};

describe('hostile: one offer, one booking, whatever its id’s spelling', () => {
  it('refuses every re-spelling of a booked offer’s id as an unknown id (404), seats untouched', async () => {
    // An id is random base64url: about one in 600 has no - or _, and so no +/ spelling. Of a page of
    // offers, one that has them is all but certain.
    const found = await offers();
    const offer = found.find((o) => /[-_]/.test(o.id.slice('off_'.length))) ?? found[0];
    const first = await book(session, bookingBody(offer));
    const before = await sold(offer);

    const spellings = respellings(offer.id);
    const answers = await Promise.all(
      Object.values(spellings).map((id) => book(session, spelledAs(offer, id))),
    );

    expect(first.status).toBe(201);
    expect(Object.keys(spellings)).toEqual(
      expect.arrayContaining(['one = of padding', 'the +/ alphabet', 'a trailing space']),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('FLIGHT_NOT_FOUND');
    }
    expect(await sold(offer)).toBe(before);
  });

  it('refuses every re-spelling of an unbooked offer’s id too, and the offer still books once', async () => {
    const [offer] = await offers();

    const answers = await Promise.all(
      Object.values(respellings(offer.id)).map((id) => book(session, spelledAs(offer, id))),
    );
    const real = await book(session, bookingBody(offer));

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    expect(real.status).toBe(201);
  });

  it('refuses every re-spelling of a round-trip offer’s id too', async () => {
    const [trip] = await offers({ return_date: addDays(date, 7) });

    const answers = await Promise.all(
      Object.values(respellings(trip.id)).map((id) => book(session, spelledAs(trip, id))),
    );

    expect(trip.inbound).toBeDefined();
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    expect((await book(session, bookingBody(trip))).status).toBe(201);
  });

  it('books exactly once when the offer is sent in every spelling at the same moment', async () => {
    const [offer] = await offers();
    const ids = [offer.id, offer.id, ...Object.values(respellings(offer.id))];

    const answers = await Promise.all(ids.map((id) => book(session, spelledAs(offer, id))));

    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.every((a) => [201, 404, 410].includes(a.status))).toBe(true);
    expect(await sold(offer)).toBe(1);
  });

  it('property: after booking, no spelling of the id books again', async () => {
    const [offer] = await offers();
    expect((await book(session, bookingBody(offer))).status).toBe(201);

    await fc.assert(
      fc.asyncProperty(respelled(offer.id), async (id) => {
        const answer = await book(session, spelledAs(offer, id));
        expect([404, 410]).toContain(answer.status);
      }),
      { numRuns: 40, seed: 11 },
    );
    expect(await sold(offer)).toBe(1);
  });
});

describe('hostile: booking create check order and money', () => {
  it('answers 410 for a booked offer even when total_price or flight_details.id differ (410 before 409)', async () => {
    const [offer, other] = await offers();
    expect((await book(session, bookingBody(offer))).status).toBe(201);

    const cheaper = await book(session, { ...bookingBody(offer), total_price: offer.total_price - 1 });
    const otherId = await book(session, {
      ...bookingBody(offer),
      flight_details: { ...offer, id: other.id },
    });
    const otherSegments = await book(session, {
      ...bookingBody(offer),
      flight_details: { ...offer, outbound: other.outbound },
    });

    for (const answer of [cheaper, otherId, otherSegments]) {
      expect(answer.status).toBe(410);
      expect(answer.body.error.code).toBe('OFFER_EXPIRED');
    }
  });

  it('still answers 409 FLIGHT_MISMATCH for an unbooked offer with a different price', async () => {
    const [offer] = await offers();

    const answer = await book(session, { ...bookingBody(offer), total_price: offer.total_price + 1 });

    expect(answer.status).toBe(409);
    expect(answer.body.error.details).toEqual([
      { path: 'total_price', expected: offer.total_price, received: offer.total_price + 1 },
    ]);
  });

  it.each([
    ['3 decimals', (price: number) => price + 0.004],
    ['a tiny fraction', (price: number) => price + 1e-9],
    ['a negative price', (price: number) => -price],
  ])('refuses flight_details.total_price with %s (400), books nothing', async (_case, spoil) => {
    const [offer] = await offers();

    const answer = await book(session, {
      ...bookingBody(offer),
      flight_details: { ...offer, total_price: spoil(offer.total_price) },
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { path: 'flight_details.total_price', message: expect.any(String) },
    ]);
    expect(await sold(offer)).toBe(0);
  });

  it('accepts money written with fewer decimals or an exponent when it is the quoted amount', async () => {
    const [offer] = await offers();
    const body = JSON.stringify(bookingBody(offer)).replace(
      `"total_price":${offer.total_price},"currency"`,
      `"total_price":${offer.total_price * 100}e-2,"currency"`,
    );

    const answer = await book(session, JSON.parse(body));

    expect(answer.status).toBe(201);
  });
});

describe('hostile: impossible dates and names in a booking', () => {
  it.each([
    '1985-13-01',
    '1985-12-32',
    '1985-04-00',
    '1985-02-29',
    '0000-00-00',
    '1985-4-1',
    '1985-04-01T00:00:00Z',
  ])('refuses born_on %s as a VALIDATION_ERROR on the field', async (bornOn) => {
    const [offer] = await offers();
    const body = bookingBody(offer);

    const answer = await book(session, { ...body, passengers: [{ ...body.passengers[0], born_on: bornOn }] });

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details).toEqual([
      { path: 'passengers.0.born_on', message: expect.any(String) },
    ]);
  });

  it('counts a name in code points after NFC and stores the composed form', async () => {
    const [offer] = await offers();
    const body = bookingBody(offer);
    const decomposed = `${'A'.repeat(34)}e\u0301`;

    const answer = await book(session, {
      ...body,
      passengers: [{ ...body.passengers[0], first_name: decomposed, last_name: 'Zoe\u0308' }],
    });

    expect(answer.status).toBe(201);
    expect(answer.body.data.passengers[0].first_name).toBe(`${'A'.repeat(34)}é`);
    expect(answer.body.data.passengers[0].last_name).toBe('Zoë');
  });

  it.each([
    ['36 composed characters', `${'A'.repeat(35)}é`],
    ['36 characters, the last decomposed', `${'A'.repeat(35)}e\u0301`],
    ['no letter at all', "'-"],
    ['an empty string', ''],
  ])('refuses a first_name of %s', async (_case, name) => {
    const [offer] = await offers();
    const body = bookingBody(offer);

    const answer = await book(session, {
      ...body,
      passengers: [{ ...body.passengers[0], first_name: name }],
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { path: 'passengers.0.first_name', message: expect.any(String) },
    ]);
  });
});

// The context's database is shared: make sure no test left an injected fault behind.
afterEach(() => {
  context.db.middlewareStack.remove('inject');
});
