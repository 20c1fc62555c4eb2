import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { openOffer, sealOffer } from '#shared/flights/offers.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import {
  agencyBookings,
  book,
  bookingBody,
  type Json,
  searchOffers,
  sellSeats,
  startBookingTest,
} from '#test/helpers/bookings.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as refundQuote } from '#test/helpers/routes/bookings/refund-quote.ts';
import type { TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

/**
 * Fare conditions on the built-in network (docs/API.md §4.1, docs/flights.md "Fare conditions"): search
 * answers each offer's from its buckets, the booking keeps them as sold, and the refund quote and the
 * cancel follow the kept ones. LHR-JFK is a Boeing 787-9: 210 economy seats, buckets closing at 42,
 * 84, 126, 158 and 189 sold.
 */
let session: TestSession;
let date: string;

beforeEach(async () => {
  ({ date, session } = await startBookingTest());
});

const call = (handler: typeof get, path: string, body: unknown) =>
  invoke(handler, { path: `/api/flights/booking/${path}`, headers: session.headers, body });
const EUR = (amount: number) => ({ amount, currency: 'EUR' });
const free = { allowed: true, penalty: EUR(0) };
const refused = { allowed: false, penalty: null };
/** A price less a penalty, in cents as the service computes it. */
const less = (price: number, penalty: number) => Math.round(price * 100 - penalty * 100) / 100;

/** The day's first LHR-JFK flight with `sold` economy seats gone, searched for `body`. */
async function firstOffer(sold: number, body: Record<string, unknown> = {}): Promise<Json> {
  const [first] = await searchOffers(session, { departure_date: date, ...body });
  if (sold > 0) {
    for (const direction of [first.outbound, first.inbound].filter(Boolean)) {
      const segment = direction.segments[0];
      await sellSeats(segment.flight_number, segment.departure_at.slice(0, 10), sold);
    }
  }
  return (await searchOffers(session, { departure_date: date, ...body }))[0];
}

async function bookOffer(offer: Json): Promise<Json> {
  const answer = await book(session, bookingBody(offer));
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

describe('fn: search, fare conditions', () => {
  it('answers each offer’s conditions from its fare bucket', async () => {
    const cheapest = await firstOffer(0);
    const third = await firstOffer(84);
    const top = await firstOffer(189);
    const first = (await searchOffers(session, { departure_date: date, travel_class: 'FIRST' }))[0];

    expect(cheapest.conditions).toEqual({
      refund_before_departure: refused,
      change_before_departure: refused,
    });
    expect(third.conditions).toEqual({
      refund_before_departure: { allowed: true, penalty: EUR(40) },
      change_before_departure: { allowed: true, penalty: EUR(25) },
    });
    expect(top.conditions).toEqual({ refund_before_departure: free, change_before_departure: free });
    expect(first.conditions).toEqual({ refund_before_departure: free, change_before_departure: free });
  });

  it('charges a penalty per passenger with a seat, and sums a round trip’s two directions', async () => {
    const family = { adults: 2, children: 1, infants: 1 };
    const oneWay = await firstOffer(84, family);
    const back = addDays(date, 7);
    const roundTrip = await firstOffer(84, { return_date: back });
    const [mixed] = await searchOffers(session, { departure_date: addDays(date, 1), return_date: back });

    expect(oneWay.conditions.refund_before_departure).toEqual({ allowed: true, penalty: EUR(3 * 40) });
    expect(roundTrip.conditions.refund_before_departure).toEqual({ allowed: true, penalty: EUR(40 + 40) });
    // Its outbound is unsold (bucket 0, no refund), its inbound refundable: the trip allows none.
    expect(mixed.conditions.refund_before_departure).toEqual(refused);
    // Each journey answers its own, the trip's summary beside them (outbound and inbound are slices).
    expect(mixed.outbound.conditions.refund_before_departure).toEqual(refused);
    expect(mixed.inbound.conditions.refund_before_departure).toEqual({ allowed: true, penalty: EUR(40) });
    expect(mixed.slices.map((s: Json) => s.conditions)).toEqual([
      mixed.outbound.conditions,
      mixed.inbound.conditions,
    ]);
    expect(roundTrip.slices.map((s: Json) => s.conditions.refund_before_departure)).toEqual([
      { allowed: true, penalty: EUR(40) },
      { allowed: true, penalty: EUR(40) },
    ]);
  });
});

describe('fn: booking, the conditions sealed in the offer', () => {
  /** `offer` as if search had shown other conditions (sealed under an older conditions table). */
  const sealedUnderOlderTable = (offer: Json): Json => {
    const quote = openOffer(testContext.keys.offer, offer.id);
    if (!quote) throw new Error('not a network offer');
    return { ...offer, id: sealOffer(testContext.keys.offer, { ...quote, conditions: 'AAAAAAAAAAAAAAAA' }) };
  };

  it('answers 409 CONDITIONS_CHANGED with a fresh Flight when the table changed since search, booking nothing', async () => {
    const offer = sealedUnderOlderTable(await firstOffer(84, { return_date: addDays(date, 7) }));

    const changed = await book(session, bookingBody(offer));
    const booked = await agencyBookings(session.agent.agency_id);
    const fresh = changed.body.error?.details?.flight;
    const rebooked = await book(session, bookingBody(fresh));

    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('CONDITIONS_CHANGED');
    expect(booked).toEqual([]);
    expect(fresh.id).not.toBe(offer.id);
    const { id: _, expires_at: __, ...same } = offer;
    expect(fresh).toMatchObject(same);
    expect(rebooked.status).toBe(201);
  });

  it('answers PRICE_CHANGED first when the fare is gone too, its fresh Flight under today’s conditions', async () => {
    const offer = sealedUnderOlderTable(await firstOffer(84));
    const segment = offer.outbound.segments[0];
    await sellSeats(segment.flight_number, segment.departure_at.slice(0, 10), 84 + 42);

    const changed = await book(session, bookingBody(offer));

    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('PRICE_CHANGED');
    expect(changed.body.error.details.flight.conditions.refund_before_departure).toEqual({
      allowed: true,
      penalty: EUR(30),
    });
  });

  it('books an offer whose conditions are still those shown', async () => {
    const offer = await firstOffer(84);
    expect(openOffer(testContext.keys.offer, offer.id)?.conditions).toMatch(/^[\w-]{16}$/);
    expect((await book(session, bookingBody(offer))).status).toBe(201);
  });
});

describe('fn: booking, refund quote and cancel under the conditions sold', () => {
  it('keeps the conditions in the booking, and refunds the price less the penalty', async () => {
    const offer = await firstOffer(84);
    const booking = await bookOffer(offer);

    const quote = await call(refundQuote, 'refund-quote', { booking_id: booking.booking_id });
    const cancelled = await call(cancel, 'cancel', {
      booking_id: booking.booking_id,
      refund: quote.body.data.refund,
    });

    expect(booking.flight.conditions).toEqual(offer.conditions);
    expect(booking.flight.outbound.conditions).toEqual(offer.outbound.conditions);
    expect(booking.flight.slices[0].conditions).toEqual(offer.slices[0].conditions);
    // What the fare includes is kept as sold too: the price split, bags and brand.
    expect(booking.flight.price_breakdown).toEqual(offer.price_breakdown);
    expect(booking.flight.outbound).toMatchObject({
      baggage: offer.outbound.baggage,
      fare_brand: 'Economy Classic',
    });
    const read = await call(get, 'get', { booking_id: booking.booking_id });
    expect(read.body.data.flight.price_breakdown).toEqual(offer.price_breakdown);
    expect(read.body.data.flight.slices[0].baggage).toEqual(offer.outbound.baggage);
    expect(quote.body.data).toMatchObject({ refund: EUR(less(offer.total_price, 40)), penalty: EUR(40) });
    expect(cancelled.body.data).toMatchObject({
      status: 'CANCELLED',
      refund: EUR(less(offer.total_price, 40)),
      flight: { conditions: offer.conditions },
    });
  });

  it('refunds 0 for a fare that allows no refund, and a cancel expecting the full price is 409', async () => {
    const booking = await bookOffer(await firstOffer(0));

    const quote = await call(refundQuote, 'refund-quote', { booking_id: booking.booking_id });
    const expectingAll = await call(cancel, 'cancel', {
      booking_id: booking.booking_id,
      refund: EUR(booking.total_price),
    });
    const cancelled = await call(cancel, 'cancel', { booking_id: booking.booking_id });

    expect(quote.body.data).toMatchObject({ refund: EUR(0), penalty: EUR(booking.total_price) });
    expect(expectingAll.status).toBe(409);
    expect(expectingAll.body.error).toMatchObject({ code: 'REFUND_CHANGED', details: { refund: EUR(0) } });
    expect(cancelled.body.data).toMatchObject({ status: 'CANCELLED', refund: EUR(0) });
  });

  it('refunds journey by journey: a refundable journey its price less its penalty, a non-refundable one nothing', async () => {
    // The outbound in bucket 2 (refund at 40 € a seat), the inbound unsold (bucket 0, no refund).
    const family = { adults: 2, children: 1, infants: 1 };
    const [outbound] = await searchOffers(session, { departure_date: date });
    const segment = outbound.outbound.segments[0];
    await sellSeats(segment.flight_number, segment.departure_at.slice(0, 10), 84);
    const offer = (
      await searchOffers(session, { departure_date: date, return_date: addDays(date, 7), ...family })
    ).find(
      (o: Json) => o.outbound.segments[0].flight_number === segment.flight_number && o.outbound.stops === 0,
    );
    const [oneWay] = (await searchOffers(session, { departure_date: date, ...family })).filter(
      (o: Json) => o.outbound.segments[0].flight_number === segment.flight_number && o.outbound.stops === 0,
    );
    const booking = await bookOffer(offer);

    const quote = await call(refundQuote, 'refund-quote', { booking_id: booking.booking_id });
    const cancelled = await call(cancel, 'cancel', {
      booking_id: booking.booking_id,
      refund: quote.body.data.refund,
    });

    expect(offer.conditions.refund_before_departure).toEqual(refused);
    expect(offer.inbound.conditions.refund_before_departure).toEqual(refused);
    // The outbound's own price (the one-way offer of the same flight and bucket) less 3 seats × 40 €.
    const refund = EUR(less(oneWay.total_price, 3 * 40));
    expect(quote.body.data).toMatchObject({ refund, penalty: EUR(less(offer.total_price, refund.amount)) });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.refund).toEqual(refund);
  });

  it('reads the conditions the booking was sold with, never today’s table', async () => {
    // A booking sold when its bucket refunded at 12.50 € (the table has changed since: it allows none)...
    const booking = await bookOffer(await firstOffer(0));
    const sold = { allowed: true, penalty: EUR(12.5) };
    await storeConditions(booking, { refund_before_departure: sold, change_before_departure: null });
    // ... and one sold before fares carried conditions, under the rule "the full price back".
    const older = await bookOffer(await firstOffer(0, { departure_date: addDays(date, 2) }));
    await storeConditions(older, undefined);

    const quote = await call(refundQuote, 'refund-quote', { booking_id: booking.booking_id });
    const read = await call(get, 'get', { booking_id: booking.booking_id });
    const olderQuote = await call(refundQuote, 'refund-quote', { booking_id: older.booking_id });
    const olderRead = await call(get, 'get', { booking_id: older.booking_id });

    expect(quote.body.data).toMatchObject({
      refund: EUR(less(booking.total_price, 12.5)),
      penalty: EUR(12.5),
    });
    expect(read.body.data.flight.conditions.refund_before_departure).toEqual(sold);
    expect(olderQuote.body.data).toMatchObject({ refund: EUR(older.total_price), penalty: null });
    expect(olderRead.body.data.flight.conditions).toEqual({
      refund_before_departure: null,
      change_before_departure: null,
    });
  });
});

/**
 * Stores `conditions` as a one-way booking's own, the trip's and its journey's (undefined: none, as
 * bookings stored before them).
 */
async function storeConditions(booking: Json, conditions: unknown) {
  const at = ['flight.conditions', 'flight.outbound.conditions', 'flight.slices[0].conditions'];
  await testTable.db.send(
    new UpdateCommand({
      TableName: testTable.tableName,
      Key: bookingKey(booking.booking_id),
      ...(conditions === undefined
        ? { UpdateExpression: `REMOVE ${at.join(', ')}` }
        : {
            UpdateExpression: `SET ${at.map((path) => `${path} = :conditions`).join(', ')}`,
            ExpressionAttributeValues: { ':conditions': conditions },
          }),
    }),
  );
}
