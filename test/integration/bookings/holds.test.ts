import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readBooking } from '#shared/bookings/entity/booking-item.ts';
import { expireHold } from '#shared/bookings/holds.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { scheduledFlight } from '#shared/flights/schedule.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  freshTravelDate,
  type Json,
  raceHoldsAtTheirDeadlines,
  searchOffers,
  seatsSold,
  sellSeats,
} from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as confirm } from '#test/helpers/routes/bookings/confirm.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler as cancelHandler } from '../../../functions/bookings/cancel.ts';
import { createHandler as confirmHandler } from '../../../functions/bookings/confirm.ts';
import { createHandler as getHandler } from '../../../functions/bookings/get.ts';
import { createHandler as listHandler } from '../../../functions/bookings/list.ts';

/** 1 December 2026, 09:00 UTC: the clock every test starts at. */
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const HOUR = 3600_000;
let session: TestSession;
let agencyId: string;
let advance: (ms: number) => void;
/** A travel date no other test of this file uses, ten days or more ahead: far enough to hold. */
let date: string;

beforeEach(async () => {
  advance = freezeClock(NOW);
  date = addDays(freshTravelDate(), 10);
  agencyId = `agency-${Math.random().toString(36).slice(2, 8)}`;
  session = await signIn({ agencyId });
});

/** Moves the clock on by `ms` and signs in again in the same agency: a session lasts an hour. */
async function later(ms: number) {
  advance(ms);
  session = await signIn({ agencyId });
}

afterEach(() => {
  vi.restoreAllMocks();
});

const call = (handler: typeof get, path: string, body: unknown, headers: Record<string, string> = {}) =>
  invoke(handler, {
    path: `/api/flights/booking/${path}`,
    headers: { ...session.headers, ...headers },
    body,
  });
const confirmOf = (
  booking: Json,
  change: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  call(
    confirm,
    'confirm',
    {
      booking_id: booking.booking_id,
      total_price: booking.total_price,
      currency: booking.currency,
      ...change,
    },
    headers,
  );
const fetchBooking = async (booking: Json) =>
  (await call(get, 'get', { booking_id: booking.booking_id })).body.data;
const flightOf = (booking: Json) => booking.flight.outbound.segments[0].flight_number;
/** The tests' context with a clock of its own, stopped at `now` (or reading `now()`): one writer's or reader's. */
const writingAt = (now: number | (() => number)) => ({
  ...testSupplierContext,
  clock: { now: typeof now === 'number' ? () => now : now },
});

/** Holds the `n`-th offer of the day for two adults. */
async function holdOne(n = 0, on = date): Promise<Json> {
  const offers = await searchOffers(session, { departure_date: on, adults: 2 });
  const answer = await book(session, { ...bookingBody(offers[n]), hold: true });
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

/** The listing entries of `booking` the sweep would find, straight from the table. */
async function listedHolds(booking: Json): Promise<Json[]> {
  const { Items } = await testTable.db.send(
    new QueryCommand({
      TableName: testTable.tableName,
      KeyConditionExpression: 'pk = :held',
      ExpressionAttributeValues: { ':held': 'HELD_BOOKINGS' },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).filter((item) => item.booking_id === booking.booking_id);
}

describe('fn: booking create with hold', () => {
  it('holds the seats as a confirmed booking takes them, until 24 hours later', async () => {
    const held = await holdOne();

    expect(held).toMatchObject({
      status: 'HELD',
      payment_required_by: '2026-12-02T09:00:00Z',
      version: 1,
      pnr: expect.stringMatching(/^[A-Z]{6}$/),
    });
    expect(await seatsSold(flightOf(held), date)).toBe(2);
    expect(await fetchBooking(held)).toEqual(held);
    const listed = await call(list, 'list', {});
    expect(listed.body.data.map((b: Json) => b.status)).toEqual(['HELD']);
  });

  it('ends a hold 48 hours before the first departure, and refuses one that would not last an hour', async () => {
    // 3 days ahead: the hold ends 48 hours before departure, sooner than 24 hours from now.
    const soon = addDays('2026-12-01', 3);
    const offers = await searchOffers(session, { departure_date: soon });
    const departure = Date.parse(offers[0].outbound.segments[0].departure_at);
    const held = await book(session, { ...bookingBody(offers[0]), hold: true });
    const tomorrow = await searchOffers(session, { departure_date: addDays('2026-12-01', 2) });
    const refused = await book(session, { ...bookingBody(tomorrow[0]), hold: true });

    expect(held.status).toBe(201);
    expect(Date.parse(held.body.data.payment_required_by)).toBe(
      Math.min(NOW + 24 * HOUR, departure - 48 * HOUR),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('HOLD_NOT_AVAILABLE');
    expect(await seatsSold(tomorrow[0].outbound.segments[0].flight_number, addDays('2026-12-01', 2))).toBe(0);
  });
});

describe('fn: booking confirm', () => {
  it('confirms a hold once, at its price; confirming again is answered with the same booking', async () => {
    const held = await holdOne();
    await later(HOUR);

    const confirmed = await confirmOf(held);
    const again = await confirmOf(held);

    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: 'CONFIRMED',
      version: 2,
      updated_at: '2026-12-01T10:00:00Z',
    });
    expect(confirmed.body.data.payment_required_by).toBeUndefined();
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(confirmed.body.data);
    expect(await fetchBooking(held)).toEqual(confirmed.body.data);
    expect(await seatsSold(flightOf(held), date)).toBe(2);
    expect(await listedHolds(held)).toEqual([]);
  });

  it('answers PRICE_CHANGED with the price to confirm at, and changes nothing', async () => {
    const held = await holdOne();

    const wrong = await confirmOf(held, { total_price: held.total_price + 1 });
    const currency = await confirmOf(held, { currency: 'USD' });

    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({
      code: 'PRICE_CHANGED',
      details: { previous_total_price: held.total_price + 1, total_price: held.total_price, currency: 'EUR' },
    });
    expect(currency.body.error.code).toBe('PRICE_CHANGED');
    expect(await fetchBooking(held)).toEqual(held);
  });

  it('answers NOT_HELD for a confirmed or cancelled booking, and 404 for another agency’s', async () => {
    const offers = await searchOffers(session, { departure_date: date });
    const confirmedAtOnce = (await book(session, bookingBody(offers[0]))).body.data;
    const held = await holdOne(1);
    await call(cancel, 'cancel', { booking_id: held.booking_id });
    const other = await signIn({ agencyId: 'other-agency' });

    const atAnotherPrice = await confirmOf(confirmedAtOnce, { total_price: 1 });
    const cancelled = await confirmOf(held);
    const foreign = await invoke(confirm, {
      path: '/api/flights/booking/confirm',
      headers: other.headers,
      body: { booking_id: held.booking_id, total_price: held.total_price, currency: 'EUR' },
    });

    expect(atAnotherPrice.body.error.code).toBe('NOT_HELD');
    expect((await confirmOf(confirmedAtOnce)).status).toBe(200);
    expect(cancelled.body.error.code).toBe('NOT_HELD');
    expect(foreign.status).toBe(404);
  });

  it('replays its first answer for the same Idempotency-Key and refuses the key with another body', async () => {
    const held = await holdOne();
    const key = { 'Idempotency-Key': `confirm-${held.booking_id}` };

    const first = await confirmOf(held, {}, key);
    const replay = await confirmOf(held, {}, key);
    const reused = await confirmOf(held, { total_price: 1 }, key);

    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    expect(reused.status).toBe(422);
  });

  it('ten confirms at once: one state change, every answer the same confirmed booking', async () => {
    const held = await holdOne();

    const answers = await Promise.all(Array.from({ length: 10 }, () => confirmOf(held)));

    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    expect(await fetchBooking(held)).toMatchObject({ status: 'CONFIRMED', version: 2 });
  });

  it('cancel racing confirm: the seats come back exactly once and the booking ends cancelled', async () => {
    for (let round = 0; round < 5; round++) {
      const held = await holdOne(round);

      const [confirmed, cancelled] = await Promise.all([
        confirmOf(held),
        call(cancel, 'cancel', { booking_id: held.booking_id }),
      ]);

      expect(cancelled.status).toBe(200);
      expect([200, 409]).toContain(confirmed.status);
      const final = await fetchBooking(held);
      expect(final.status).toBe('CANCELLED');
      // Confirmed first: cancelled as a confirmed booking (refunded, version 3); else the hold was cancelled.
      expect(final.version).toBe(confirmed.status === 200 ? 3 : 2);
      // Every cancelled booking says what it refunded: 0 for a hold; once confirmed, what its fare's
      // conditions give back, and the cheapest bucket these holds are sold in allows no refund.
      expect(final.flight.conditions.refund_before_departure.allowed).toBe(false);
      expect(final.refund).toEqual({ amount: 0, currency: 'EUR' });
    }
    expect(await seatsSold(flightOf(await holdOne(6)), date)).toBe(2);
  });
});

describe('hold expiry', () => {
  it('reads as EXPIRED the moment the deadline passes, then the sweep gives the seats back', async () => {
    const held = await holdOne();
    // The rest of the cabin sells out: the held flight is offered again only once the hold's 2 seats
    // come back.
    const capacity = scheduledFlight(flightOf(held), date)?.leg.aircraft.seats.ECONOMY ?? 0;
    await sellSeats(flightOf(held), date, capacity);
    const offered = async () =>
      (await searchOffers(session, { departure_date: date, adults: 2 })).find(
        (offer: Json) =>
          offer.outbound.segments.length === 1 && flightOf({ flight: offer }) === flightOf(held),
      );
    expect(await offered()).toBeUndefined();
    await later(24 * HOUR);

    const late = await fetchBooking(held);
    const listed = await call(list, 'list', {});
    expect(late).toMatchObject({ status: 'EXPIRED', version: 2, updated_at: held.payment_required_by });
    expect(listed.body.data[0]).toEqual(late);
    expect(await seatsSold(flightOf(held), date)).toBe(capacity);

    expect((await sweep()).expired).toBeGreaterThanOrEqual(1);

    expect(await fetchBooking(held)).toEqual(late);
    expect(await seatsSold(flightOf(held), date)).toBe(capacity - 2);
    expect(await listedHolds(held)).toEqual([]);
    expect((await offered())?.seats_available).toBe(2);
    expect(await sweep()).toEqual({ expired: 0, confirmed: 0, held: 0, failed: 0, waiting: 0 });
  });

  it('leaves a hold alone until its deadline: one second before, the sweep expires nothing', async () => {
    const held = await holdOne();
    await later(24 * HOUR - 1000);

    await sweep();

    expect((await fetchBooking(held)).status).toBe('HELD');
    expect(await listedHolds(held)).toHaveLength(1);
    expect(await seatsSold(flightOf(held), date)).toBe(2);
  });

  it('confirm after the deadline is 410 HOLD_EXPIRED and frees the seats at once; cancel answers EXPIRED', async () => {
    const held = await holdOne();
    await later(25 * HOUR);

    const confirmed = await confirmOf(held);
    const cancelled = await call(cancel, 'cancel', { booking_id: held.booking_id });

    expect(confirmed.status).toBe(410);
    expect(confirmed.body.error.code).toBe('HOLD_EXPIRED');
    expect(await seatsSold(flightOf(held), date)).toBe(0);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'EXPIRED', version: 2 });
  });

  it('confirm of a lapsed hold is 410 HOLD_EXPIRED both before and after the sweep stores EXPIRED', async () => {
    const held = await holdOne();
    const other = await holdOne(1);
    await later(24 * HOUR + 65_000);

    const beforeSweep = await confirmOf(held);
    await sweep();
    const afterSweep = await confirmOf(other);
    const again = await confirmOf(held);

    for (const answer of [beforeSweep, afterSweep, again]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(410);
      expect(answer.body.error.code).toBe('HOLD_EXPIRED');
    }
    expect(await fetchBooking(other)).toMatchObject({ status: 'EXPIRED', version: 2 });
  });

  it('confirm racing expiry: exactly one wins, and the seats match the winner', async () => {
    for (let round = 0; round < 6; round++) {
      const held = await holdOne(round);
      const record = await readBooking(testSupplierContext, held.booking_id);
      if (!record) throw new Error('no booking');
      // The confirm runs a second before the deadline, the expiry a second after it.
      await later(24 * HOUR - 1000);
      const [confirmed, expired] = await Promise.all([
        confirmOf(held),
        expireHold(writingAt(NOW + 24 * HOUR + 1000), record),
      ]);
      await later(-(24 * HOUR - 1000));

      const final = await readBooking(testSupplierContext, held.booking_id);
      expect(confirmed.status === 200).toBe(!expired);
      expect(final?.status).toBe(expired ? 'EXPIRED' : 'CONFIRMED');
      expect(final?.version).toBe(2);
      expect(await seatsSold(flightOf(held), date)).toBe(expired ? 0 : 2);
      if (!expired) await call(cancel, 'cancel', { booking_id: held.booking_id });
    }
  });

  it('a crash between the sweep’s read and its write leaves the hold HELD and listed; the next sweep expires it', async () => {
    await later(0);
    const held = await holdOne();
    advance(25 * HOUR);
    const fail =
      (next: (args: unknown) => Promise<unknown>, ctx: { commandName?: string }) => async (args: unknown) => {
        if (ctx.commandName === 'TransactWriteItemsCommand')
          throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
        return next(args);
      };
    testSupplierContext.db.middlewareStack.add(fail as never, { step: 'initialize', name: 'crashSweep' });

    await expect(sweep()).rejects.toThrow();
    testSupplierContext.db.middlewareStack.remove('crashSweep');

    expect((await readBooking(testSupplierContext, held.booking_id))?.status).toBe('HELD');
    expect(await listedHolds(held)).toHaveLength(1);
    expect(await seatsSold(flightOf(held), date)).toBe(2);
    await sweep();
    expect((await readBooking(testSupplierContext, held.booking_id))?.status).toBe('EXPIRED');
    expect(await listedHolds(held)).toEqual([]);
    expect(await seatsSold(flightOf(held), date)).toBe(0);
  });
});

describe('one truth at the deadline', () => {
  type Clocked = number | (() => number);
  /** The routes, each on a clock of its own: a writer's or a reader's. */
  const at = (now: Clocked) => ({
    confirm: (booking: Json) =>
      invoke(confirmHandler(writingAt(now)), {
        headers: session.headers,
        body: {
          booking_id: booking.booking_id,
          total_price: booking.total_price,
          currency: booking.currency,
        },
      }),
    cancel: (booking: Json) =>
      invoke(cancelHandler(writingAt(now)), {
        headers: session.headers,
        body: { booking_id: booking.booking_id },
      }),
    get: (booking: Json) =>
      invoke(getHandler(writingAt(now)), {
        headers: session.headers,
        body: { booking_id: booking.booking_id },
      }),
    list: () => invoke(listHandler(writingAt(now)), { headers: session.headers, body: {} }),
  });
  const stored = async (booking: Json) => {
    const record = await readBooking(testSupplierContext, booking.booking_id);
    return `${record?.status} v${record?.version}`;
  };
  const DEADLINE = NOW + 24 * HOUR;
  /** Holds `n` bookings, then signs in a second before their deadline (a session lasts an hour). */
  async function holdsNearTheDeadline(n: number): Promise<Json[]> {
    const held: Json[] = [];
    for (let i = 0; i < n; i++) held.push(await holdOne(i));
    await later(24 * HOUR - 1000);
    return held;
  }

  /**
   * Runs `meanwhile` once, just after the next read of `booking`'s item: another request's write landing
   * between this request's read and its own write.
   */
  function afterNextRead(booking: Json, meanwhile: () => Promise<unknown>) {
    let done = false;
    const step =
      (next: (args: unknown) => Promise<unknown>, ctx: { commandName?: string }) => async (args: unknown) => {
        const result = await next(args);
        const key = JSON.stringify((args as { input?: { Key?: unknown } }).input?.Key ?? '');
        if (!done && ctx.commandName === 'GetItemCommand' && key.includes(booking.booking_id)) {
          done = true;
          await meanwhile();
        }
        return result;
      };
    testSupplierContext.db.middlewareStack.add(step as never, { step: 'initialize', name: 'afterNextRead' });
  }
  afterEach(() => {
    testSupplierContext.db.middlewareStack.remove('afterNextRead');
  });

  it('the clock flips at the deadline: a write a millisecond before confirms, one at it is 410, and reads answer what was stored', async () => {
    const [a, b] = await holdsNearTheDeadline(2);

    const confirmedInTime = await at(DEADLINE - 1).confirm(a);
    const readLate = await at(DEADLINE + 5000).get(a);
    const confirmedLate = await at(DEADLINE).confirm(b);
    const readEarly = await at(DEADLINE - 1).get(b);

    expect(confirmedInTime.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(readLate.body.data).toEqual(confirmedInTime.body.data);
    expect(await stored(a)).toBe('CONFIRMED v2');
    expect(confirmedLate.status).toBe(410);
    expect(confirmedLate.body.error.code).toBe('HOLD_EXPIRED');
    expect(readEarly.body.data).toMatchObject({ status: 'EXPIRED', version: 2 });
    expect(await stored(b)).toBe('EXPIRED v2');
  });

  it('a read at the deadline stores the expiry it answers, so a confirm by a clock still before it cannot win after', async () => {
    const [held, other] = await holdsNearTheDeadline(2);

    const before = await at(DEADLINE - 1).get(held);
    const atDeadline = await at(DEADLINE).get(held);
    const listed = await at(DEADLINE).list();
    const confirm = await at(DEADLINE - 1000).confirm(held);
    const confirmOther = await at(DEADLINE - 1000).confirm(other);

    expect(before.body.data).toMatchObject({ status: 'HELD', version: 1 });
    expect(atDeadline.body.data).toMatchObject({
      status: 'EXPIRED',
      version: 2,
      updated_at: held.payment_required_by,
    });
    expect(await stored(held)).toBe('EXPIRED v2');
    expect(listed.body.data.map((b: Json) => `${b.status} v${b.version}`)).toEqual([
      'EXPIRED v2',
      'EXPIRED v2',
    ]);
    expect(await stored(other)).toBe('EXPIRED v2');
    expect(confirm.status).toBe(410);
    expect(confirmOther.status).toBe(410);
    // The sweep gives the seats back of the lapses the reads stored, once.
    expect(await seatsSold(flightOf(held), date)).toBe(2);
    advance(1000);
    expect((await sweep()).expired).toBeGreaterThanOrEqual(2);
    await sweep();
    expect(await seatsSold(flightOf(held), date)).toBe(0);
    expect(await seatsSold(flightOf(other), date)).toBe(0);
    expect(await listedHolds(held)).toEqual([]);
  });

  it('a confirm that arrives before the deadline and writes after it is 410, by the clock as it writes', async () => {
    const [held] = await holdsNearTheDeadline(1);
    let now = DEADLINE - 1;
    afterNextRead(held, async () => {
      now = DEADLINE;
    });

    const confirm = await at(() => now).confirm(held);

    expect(confirm.status).toBe(410);
    expect(await stored(held)).toBe('EXPIRED v2');
    expect((await at(DEADLINE - 1).get(held)).body.data.status).toBe('EXPIRED');
  });

  it('a cancel or a confirm past the deadline whose expiry loses to a confirm in time answers what was stored, never EXPIRED', async () => {
    const [cancelled, confirmed] = await holdsNearTheDeadline(2);
    /** `late`'s answer when a confirm in time lands between its read of `held` and its expiry. */
    const beaten = async (held: Json, late: (held: Json) => Promise<Json>) => {
      let inTime: Json;
      afterNextRead(held, async () => {
        inTime = await at(DEADLINE - 1).confirm(held);
      });
      const answer = await late(held);
      testSupplierContext.db.middlewareStack.remove('afterNextRead');
      expect(inTime.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
      return answer;
    };

    const cancel = await beaten(cancelled, at(DEADLINE + 1).cancel);
    const confirm = await beaten(confirmed, at(DEADLINE + 1).confirm);

    // The hold was confirmed in time: the cancel cancels the confirmed booking it became.
    expect(cancel.body.data).toMatchObject({ status: 'CANCELLED', version: 3 });
    expect(await stored(cancelled)).toBe('CANCELLED v3');
    expect(confirm.status).toBe(200);
    expect(confirm.body.data).toMatchObject({ status: 'CONFIRMED', version: 2 });
    expect(await stored(confirmed)).toBe('CONFIRMED v2');
  });

  it('races at the deadline: 3 confirms, a cancel and a read together, 50 rounds, every answer what was stored', {
    timeout: 60_000,
  }, async () => {
    const held: Json[] = [];
    for (let day = 0; day < 5; day++) {
      const offers = await searchOffers(session, { departure_date: addDays(date, day), adults: 2 });
      const holds = await Promise.all(
        offers.slice(0, 10).map((offer: Json) => book(session, { ...bookingBody(offer), hold: true })),
      );
      held.push(...holds.map((answer) => answer.body.data));
    }
    await later(24 * HOUR - 1000);
    const { problems, outcomes } = await raceHoldsAtTheirDeadlines(held, {
      routes: (clock, booking) => ({
        confirm: () => at(clock).confirm(booking),
        cancel: () => at(clock).cancel(booking),
        get: () => at(clock).get(booking),
      }),
      stored: (booking) => readBooking(testSupplierContext, booking.booking_id),
    });

    expect(problems, JSON.stringify([...outcomes])).toEqual([]);
    // The races went both ways: holds ended expired and cancelled (as holds, or once confirmed).
    expect(outcomes.size, JSON.stringify([...outcomes])).toBeGreaterThanOrEqual(2);
    advance(2000);
    await sweep();
    for (const booking of held) expect(await listedHolds(booking)).toEqual([]);
  });
});
