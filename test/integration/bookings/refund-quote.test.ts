import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '#shared/flights/local-time.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  book,
  bookingBody,
  type Json,
  searchOffers,
  seatsSold,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as refundQuote } from '#test/helpers/routes/bookings/refund-quote.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/**
 * The refund quote and cancel at an expected refund on the built-in network (docs/API.md §4.3): the
 * network refunds the price less the penalty of the fare's conditions, a hold 0; a cancel sent with a
 * refund that no longer holds is 409 REFUND_CHANGED and changes nothing. Confirmed bookings here are
 * sold in LHR-JFK's third economy bucket (84 seats gone): refundable at 40 € (fare-conditions.test.ts
 * covers the other rows).
 */
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
const quoteOf = (booking: Json, who = session) =>
  call(refundQuote, 'refund-quote', { booking_id: booking.booking_id }, who);
const read = async (booking: Json) => (await call(get, 'get', { booking_id: booking.booking_id })).body.data;

/** Seats already gone on the day's first flight before each confirmed booking here. */
const SOLD = 84;
const PENALTY = 40;
/** The price less the penalty, in cents as the service computes it. */
const lessPenalty = (price: number) => Math.round(price * 100 - PENALTY * 100) / 100;

async function bookOne(hold = false): Promise<Json> {
  // Holds need a departure more than 49 hours away.
  const search = () => searchOffers(session, { departure_date: hold ? addDays(date, 10) : date });
  if (!hold) await sellSeats((await search())[0].outbound.segments[0].flight_number, date, SOLD);
  const offers = await search();
  const answer = await book(session, { ...bookingBody(offers[0]), ...(hold && { hold: true }) });
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}
const departure = (booking: Json) => booking.flight.outbound.segments[0].departure_at;
const soldSeats = (booking: Json) => seatsSold(booking.flight.outbound.segments[0].flight_number, date);

describe('fn: booking refund-quote', () => {
  it('quotes the price less the penalty of a confirmed booking until its first departure, and changes nothing', async () => {
    const booking = await bookOne();

    const quote = await quoteOf(booking);

    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual({
      booking_id: booking.booking_id,
      refund: { amount: lessPenalty(booking.total_price), currency: booking.currency },
      penalty: { amount: PENALTY, currency: booking.currency },
      expires_at: departure(booking),
      // The built-in network refunds to the agency's account, in no airline credits.
      refund_to: 'balance',
      airline_credits: [],
    });
    expect(await read(booking)).toEqual(booking);
  });

  it('quotes 0 for a hold, until its deadline', async () => {
    const held = await bookOne(true);

    const quote = await quoteOf(held);

    expect(quote.body.data).toEqual({
      booking_id: held.booking_id,
      refund: { amount: 0, currency: held.currency },
      penalty: null,
      expires_at: held.payment_required_by,
      // Nothing was paid.
      refund_to: 'awaiting_payment',
      airline_credits: [],
    });
  });

  it('answers 409 NOT_CANCELLABLE for a cancelled, expired or departed booking, and 404 for another agency’s', async () => {
    const cancelled = await bookOne();
    await call(cancel, 'cancel', { booking_id: cancelled.booking_id });
    const held = await bookOne(true);
    const departed = await bookOne();
    const stranger = await signIn({ agencyId: 'refund-stranger' });

    const ofCancelled = await quoteOf(cancelled);
    const ofStranger = await quoteOf(departed, stranger);
    advance(Date.parse(held.payment_required_by) - NOW);
    const colleague = await signIn({ agencyId: session.agent.agency_id });
    const ofExpired = await quoteOf(held, colleague);
    advance(Math.max(0, Date.parse(departure(departed)) - Date.parse(held.payment_required_by)));
    const ofDeparted = await quoteOf(departed, await signIn({ agencyId: session.agent.agency_id }));

    expect([ofCancelled, ofExpired, ofDeparted].map((a) => [a.status, a.body.error?.code])).toEqual([
      [409, 'NOT_CANCELLABLE'],
      [409, 'NOT_CANCELLABLE'],
      [409, 'NOT_CANCELLABLE'],
    ]);
    expect(ofStranger.status).toBe(404);
  });
});

describe('fn: booking cancel at an expected refund', () => {
  it('cancels at the quoted refund, and the cancelled booking carries it', async () => {
    const booking = await bookOne();
    const { refund } = (await quoteOf(booking)).body.data;

    const answer = await call(cancel, 'cancel', { booking_id: booking.booking_id, refund });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', refund, version: 2 });
    expect(await soldSeats(booking)).toBe(SOLD);
  });

  it('answers 409 REFUND_CHANGED for a refund that no longer holds, with the fresh quote, and changes nothing', async () => {
    const booking = await bookOne();
    // The full price: what the network refunded before fares carried conditions.
    const stale = { amount: booking.total_price, currency: booking.currency };

    const answer = await call(cancel, 'cancel', { booking_id: booking.booking_id, refund: stale });

    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: 'REFUND_CHANGED',
      details: {
        previous_refund: stale,
        refund: { amount: lessPenalty(booking.total_price), currency: booking.currency },
        quote: (await quoteOf(booking)).body.data,
      },
    });
    expect(await read(booking)).toEqual(booking);
    expect(await soldSeats(booking)).toBe(SOLD + 1);
  });

  it('a refund in another currency is changed too; a hold cancels at 0 and says so', async () => {
    const booking = await bookOne();
    const held = await bookOne(true);

    const otherCurrency = await call(cancel, 'cancel', {
      booking_id: booking.booking_id,
      refund: { amount: booking.total_price, currency: booking.currency === 'EUR' ? 'USD' : 'EUR' },
    });
    const atZero = await call(cancel, 'cancel', {
      booking_id: held.booking_id,
      refund: { amount: 0, currency: held.currency },
    });

    expect(otherCurrency.body.error.code).toBe('REFUND_CHANGED');
    expect(atZero.body.data).toMatchObject({
      status: 'CANCELLED',
      refund: { amount: 0, currency: held.currency },
    });
  });

  it('refuses a malformed refund with 400 on its field', async () => {
    const booking = await bookOne();

    const answer = await call(cancel, 'cancel', {
      booking_id: booking.booking_id,
      refund: { amount: 1.234, currency: 'eur' },
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: Json) => d.path).sort()).toEqual([
      'refund.amount',
      'refund.currency',
    ]);
    expect((await read(booking)).status).toBe('CONFIRMED');
  });
});
