import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, type Json, searchOffers } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/**
 * booking/list's turn-5 filters through the handler over DynamoDB Local (docs/API.md §4.3): search by
 * PNR, whole last name (case and accents ignored) or e-mail, first-departure dates, `created_by: "me"`,
 * holds by deadline; filters combine and a cursor is bound to them all. The paging and read budget
 * are proved over every combination in test/unit/bookings/entity/agency-listing.test.ts.
 */
let ana: TestSession;
let ben: TestSession;
const made: Record<string, Json> = {};

const listPage = (session: TestSession, body: Record<string, unknown>) =>
  invoke(list, { path: '/api/flights/booking/list', body, headers: session.headers });
const ids = async (session: TestSession, body: Record<string, unknown>) => {
  const answer = await listPage(session, { limit: 100, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((b: Json) => b.booking_id);
};

async function bookAs(
  session: TestSession,
  date: string,
  lastName: string,
  extra: Record<string, unknown> = {},
) {
  const [offer] = await searchOffers(session, { departure_date: date });
  const body = bookingBody(offer);
  body.passengers = body.passengers.map((p: Json) => ({ ...p, last_name: lastName }));
  const answer = await book(session, { ...body, ...extra });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

beforeAll(async () => {
  // 1 December 2026 09:00 UTC: a hold departing 3 days on ends 48 hours before it, the far one 24 hours on.
  const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const agencyId = `list-filters-${Math.random().toString(36).slice(2, 8)}`;
  ana = await signIn({ agencyId });
  ben = await signIn({ agencyId });
  made.farHold = await bookAs(ana, '2026-12-20', 'Lovelace', { hold: true });
  advance(1000); // one second apart: newest first is the order they were made in
  made.muller = await bookAs(ana, '2026-12-18', 'Müller', {
    contact: { email: 'Ana.Client@Example.com', phone: '+447700900123' },
  });
  advance(1000);
  made.lovelace = await bookAs(ben, '2026-12-19', 'Lovelace');
  advance(1000);
  made.soonHold = await bookAs(ben, '2026-12-04', 'Ng', { hold: true });
}, 60_000);

describe('fn: booking list, turn 5 filters', () => {
  it('finds by a whole last name whatever its case and accents, by PNR in any case and by e-mail', async () => {
    expect(await ids(ana, { q: 'MULLER' })).toEqual([made.muller.booking_id]);
    expect(await ids(ana, { q: ' müller ' })).toEqual([made.muller.booking_id]);
    expect(await ids(ana, { q: 'Mull' })).toEqual([]);
    expect(await ids(ana, { q: 'lovelace' })).toEqual([made.lovelace.booking_id, made.farHold.booking_id]);
    expect(await ids(ana, { q: made.soonHold.pnr.toLowerCase() })).toEqual([made.soonHold.booking_id]);
    expect(await ids(ana, { q: 'ana.client@example.com' })).toEqual([made.muller.booking_id]);
  });

  it('narrows to the first departure’s dates, inclusive, and to the caller’s own bookings', async () => {
    expect(await ids(ana, { departure_from: '2026-12-18', departure_to: '2026-12-19' })).toEqual([
      made.lovelace.booking_id,
      made.muller.booking_id,
    ]);
    expect(await ids(ana, { created_by: 'me' })).toEqual([made.muller.booking_id, made.farHold.booking_id]);
    expect(await ids(ben, { created_by: 'me', q: 'lovelace' })).toEqual([made.lovelace.booking_id]);
  });

  it('lists the holds soonest deadline first with sort "deadline", combined with the other filters', async () => {
    expect(made.soonHold.payment_required_by < made.farHold.payment_required_by).toBe(true);
    expect(await ids(ana, { sort: 'deadline' })).toEqual([made.soonHold.booking_id, made.farHold.booking_id]);
    expect(await ids(ana, { sort: 'deadline', limit: 1 })).toEqual([made.soonHold.booking_id]);
    expect(await ids(ana, { sort: 'deadline', q: 'lovelace' })).toEqual([made.farHold.booking_id]);
    expect(await ids(ana, { sort: 'deadline', status: ['CONFIRMED'] })).toEqual([]);
  });

  it('binds a cursor to every filter and the sort: another one with it is 400 on cursor', async () => {
    const first = await listPage(ana, { q: 'lovelace', limit: 1 });
    const cursor = first.body.meta.next_cursor;
    expect(cursor).toEqual(expect.any(String));

    const next = await listPage(ana, { q: 'LOVELACE', limit: 1, cursor });
    expect(next.body.data.map((b: Json) => b.booking_id)).toEqual([made.farHold.booking_id]);
    expect(next.body.meta).toEqual({ next_cursor: null });
    for (const other of [
      { q: 'ng' },
      {},
      { q: 'lovelace', sort: 'deadline' },
      { q: 'lovelace', created_by: 'me' },
      { q: 'lovelace', departure_from: '2026-12-01' },
    ]) {
      const answer = await listPage(ana, { ...other, cursor });
      expect(answer.status, JSON.stringify(other)).toBe(400);
      expect(answer.body.error.details.map((d: Json) => d.path)).toEqual(['cursor']);
    }
  });

  it('refuses malformed filters on their exact path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ q: 'a' }, 'q'],
      [{ q: '  a ' }, 'q'],
      [{ q: 'x'.repeat(65) }, 'q'],
      [{ q: 42 }, 'q'],
      [{ departure_from: '2027-02-30' }, 'departure_from'],
      [{ departure_to: '2027-01-01T00:00:00Z' }, 'departure_to'],
      [{ departure_from: '2027-01-02', departure_to: '2027-01-01' }, 'departure_to'],
      [{ created_by: 'you' }, 'created_by'],
      [{ sort: 'price' }, 'sort'],
    ];
    for (const [body, path] of cases) {
      const answer = await listPage(ana, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: Json) => d.path)).toEqual([path]);
    }
    // 64 characters with an accent sent decomposed: 64 code points after NFC.
    expect((await listPage(ana, { q: `${'e\u0301'.repeat(32)}${'x'.repeat(32)}` })).status).toBe(200);
  });
});
