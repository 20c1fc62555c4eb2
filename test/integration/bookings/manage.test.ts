import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pnrKey } from '#shared/bookings/entity/pnr-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  type Json,
  searchOffers,
  seatsSold,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { respellings } from '#test/helpers/respell.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/** The instant startBookingTest freezes the clock at. */
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
let session: TestSession;
let advance: (ms: number) => void;
let date: string;

beforeEach(async () => {
  ({ advance, date, session } = await startBookingTest());
});

afterEach(() => {
  vi.restoreAllMocks();
});

const call = (handler: typeof get, path: string, body: unknown, who = session) =>
  invoke(handler, { path: `/api/flights/booking/${path}`, headers: who.headers, body });

/** Books the `n`-th flight of the day for the session's agency. */
async function bookOne(n = 0, who = session): Promise<Json> {
  const offers = await searchOffers(who, { departure_date: date });
  const answer = await book(who, bookingBody(offers[n]));
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

const soldSeats = (booking: Json) => seatsSold(booking.flight.outbound.segments[0].flight_number, date);

describe('fn: booking get', () => {
  it('finds a booking by id and by PNR', async () => {
    const booking = await bookOne();

    const byId = await call(get, 'get', { booking_id: booking.booking_id });
    const byPnr = await call(get, 'get', { pnr: booking.pnr });

    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(booking);
    expect(byPnr.body.data).toEqual(booking);
  });

  it('knows an id or PNR only as issued: another spelling is refused, never found', async () => {
    const booking = await bookOne();
    const ids = [
      booking.booking_id.toLowerCase(),
      ` ${booking.booking_id}`,
      `${booking.booking_id} `,
      `${booking.booking_id}=`,
      booking.booking_id.replace('bkg_', 'BKG_'),
    ];
    const pnrs = [` ${booking.pnr}`, `${booking.pnr} `, `${booking.pnr}=`, `${booking.pnr.slice(1)}\u212A`];

    const answers = [
      ...(await Promise.all(ids.map((booking_id) => call(get, 'get', { booking_id })))),
      ...(await Promise.all(pnrs.map((pnr) => call(get, 'get', { pnr })))),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('finds a PNR typed in any letter case (docs/API.md §4.3)', async () => {
    const booking = await bookOne();
    const lower = booking.pnr.toLowerCase();
    const mixed = [...lower].map((c, i) => (i % 2 ? c : c.toUpperCase())).join('');

    const answers = await Promise.all([lower, mixed].map((pnr) => call(get, 'get', { pnr })));

    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual(booking);
    }
  });

  it("answers another agency's PNR from the PNR item alone: the same round trips as an unknown PNR", async () => {
    const booking = await bookOne();
    const stranger = await signIn({ agencyId: 'stranger-agency-pnr' });
    const roundTrips = async (pnr: string) => {
      const { calls, stop } = recordDynamoCalls(context.db, 'pnrCalls');
      try {
        const answer = await call(get, 'get', { pnr }, stranger);
        expect(answer.status).toBe(404);
        return [...calls];
      } finally {
        stop();
      }
    };

    const theirs = await roundTrips(booking.pnr);
    const unknown = await roundTrips(booking.pnr === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ');

    // The session check, then the PNR item: the booking itself is never read.
    expect(theirs).toEqual(['GetItemCommand', 'GetItemCommand']);
    expect(theirs).toEqual(unknown);
  });

  it('still finds a booking through a PNR item stored without its agency (before PNR items carried it)', async () => {
    const booking = await bookOne();
    const stranger = await signIn({ agencyId: 'stranger-agency-legacy' });
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: { ...pnrKey(booking.pnr), booking_id: booking.booking_id },
      }),
    );

    const mine = await call(get, 'get', { pnr: booking.pnr });
    const theirs = await call(get, 'get', { pnr: booking.pnr }, stranger);

    expect(mine.body.data).toEqual(booking);
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it("answers 404 for another agency's booking, exactly as for one that does not exist", async () => {
    const booking = await bookOne();
    const stranger = await signIn({ agencyId: 'stranger-agency' });

    const theirs = await call(get, 'get', { booking_id: booking.booking_id }, stranger);
    const byPnr = await call(get, 'get', { pnr: booking.pnr }, stranger);
    const missing = await call(get, 'get', { pnr: 'ZZZZZZ' });

    for (const answer of [theirs, byPnr, missing]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
      expect(answer.body.error.message).toBe(missing.body.error.message);
    }
  });

  it.each([
    ['neither id nor PNR', {}, 'booking_id'],
    ['both', { booking_id: 'bkg_01KAAAAAAAAAAAAAAAAAAAAAAA', pnr: 'ABCDEF' }, 'booking_id'],
    ['a malformed id', { booking_id: 'booking-1' }, 'booking_id'],
    ['a malformed PNR', { pnr: 'ABC-12' }, 'pnr'],
  ])('refuses %s with 400', async (_case, body, path) => {
    const answer = await call(get, 'get', body);

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: Json) => d.path)).toEqual([path]);
  });
});

describe('fn: booking list', () => {
  it("lists the agency's bookings newest first, a page at a time with an opaque cursor", async () => {
    const made: Json[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(await bookOne(i));
      advance(1000);
    }
    const stranger = await signIn({ agencyId: 'stranger-agency-2' });

    const first = await call(list, 'list', { limit: 2 });
    const second = await call(list, 'list', { limit: 2, cursor: first.body.meta.next_cursor });
    const theirs = await call(list, 'list', {}, stranger);

    expect(first.status).toBe(200);
    expect(first.body.data.map((b: Json) => b.booking_id)).toEqual([made[2].booking_id, made[1].booking_id]);
    expect(first.body.meta.next_cursor).toEqual(expect.any(String));
    expect(second.body.data.map((b: Json) => b.booking_id)).toEqual([made[0].booking_id]);
    expect(second.body.meta).toEqual({ next_cursor: null });
    expect(theirs.body).toEqual({ success: true, data: [], meta: { next_cursor: null } });
  });

  it('says next_cursor null on a last page that happens to be full', async () => {
    const made: Json[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await bookOne(i % 3));
      advance(1000);
    }

    const all = await call(list, 'list', { limit: 5 });
    const firstPage = await call(list, 'list', { limit: 3 });
    const lastPage = await call(list, 'list', { limit: 2, cursor: firstPage.body.meta.next_cursor });

    expect(all.body.data).toHaveLength(5);
    expect(all.body.meta).toEqual({ next_cursor: null });
    expect(firstPage.body.meta.next_cursor).toEqual(expect.any(String));
    expect(lastPage.body.data.map((b: Json) => b.booking_id)).toEqual([
      made[1].booking_id,
      made[0].booking_id,
    ]);
    expect(lastPage.body.meta).toEqual({ next_cursor: null });
  });

  it('knows a cursor only as issued: padded, other alphabet or changed bits is refused', async () => {
    for (let i = 0; i < 3; i++) {
      await bookOne(i);
      advance(1000);
    }
    const cursor: string = (await call(list, 'list', { limit: 1 })).body.meta.next_cursor;

    const answers = await Promise.all(
      Object.values(respellings(cursor)).map((spelling) =>
        call(list, 'list', { limit: 1, cursor: spelling }),
      ),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual([
        { path: 'cursor', message: 'is not a cursor this API returned' },
      ]);
    }
  });

  it('refuses a cursor it did not issue, and a limit out of range', async () => {
    const badCursor = await call(list, 'list', { cursor: 'bm90LWEtY3Vyc29y' });
    const badLimit = await call(list, 'list', { limit: 101 });

    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.details).toEqual([
      { path: 'cursor', message: 'is not a cursor this API returned' },
    ]);
    expect(badLimit.body.error.details).toEqual([{ path: 'limit', message: 'must be between 1 and 100' }]);
  });
});

describe('fn: booking cancel', () => {
  it('cancels, returning the seats, so the flight is back on offer at its old price', async () => {
    const offersBefore = await searchOffers(session, { departure_date: date });
    const booking = await bookOne();
    advance(60_000);

    const answer = await call(cancel, 'cancel', { booking_id: booking.booking_id });
    const offersAfter = await searchOffers(session, { departure_date: date });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      ...booking,
      status: 'CANCELLED',
      cancelled_at: '2026-12-01T09:01:00Z',
      cancelled_by: { id: session.agent.id, name: session.agent.name },
      // The cheapest bucket allows no refund (docs/flights.md, "Fare conditions").
      refund: { amount: 0, currency: 'EUR' },
      refund_to: 'balance',
      airline_credits: [],
      updated_at: '2026-12-01T09:01:00Z',
      version: 2,
    });
    expect(await soldSeats(booking)).toBe(0);
    expect(offersAfter[0].total_price).toBe(offersBefore[0].total_price);
    expect((await call(get, 'get', { booking_id: booking.booking_id })).body.data.status).toBe('CANCELLED');
  });

  it('answers a second cancel with the same cancelled booking and returns the seats once', async () => {
    const booking = await bookOne();
    await bookOne(0);

    const first = await call(cancel, 'cancel', { booking_id: booking.booking_id });
    advance(60_000);
    const again = await call(cancel, 'cancel', { booking_id: booking.booking_id });

    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await soldSeats(booking)).toBe(1);
  });

  it('returns the seats once when the same booking is cancelled 5 times in parallel', async () => {
    const booking = await bookOne();

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(cancel, 'cancel', { booking_id: booking.booking_id })),
    );

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await soldSeats(booking)).toBe(0);
  });

  it('answers 409 NOT_CANCELLABLE once the first flight has departed', async () => {
    const booking = await bookOne();
    advance(Date.parse(booking.flight.outbound.segments[0].departure_at) - NOW);
    const colleague = await signIn({ agencyId: session.agent.agency_id });

    const answer = await call(cancel, 'cancel', { booking_id: booking.booking_id }, colleague);

    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('NOT_CANCELLABLE');
    expect(await soldSeats(booking)).toBe(1);
  });

  it("answers 404 for another agency's booking and changes nothing", async () => {
    const booking = await bookOne();
    const stranger = await signIn({ agencyId: 'stranger-agency-3' });

    const answer = await call(cancel, 'cancel', { booking_id: booking.booking_id }, stranger);

    expect(answer.status).toBe(404);
    expect(await soldSeats(booking)).toBe(1);
  });
});
