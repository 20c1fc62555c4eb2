import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../auth/session.ts';
import { type Clock, isoSeconds } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { gsi1, keys } from '../db/table.ts';
import {
  ApiError,
  type ErrorDetail,
  FlightMismatchError,
  FlightNotFoundError,
  IdempotencyInProgressError,
  OfferExpiredError,
  PriceChangedError,
  ReplayedError,
  ServiceUnavailableError,
  SoldOutError,
  ValidationError,
} from '../errors.ts';
import { bucketLimits, seatsFor } from '../flights/fares.ts';
import {
  type FlightView,
  flightView,
  MAX_SEATS_SHOWN,
  quotedFlights,
  quotedFlightView,
} from '../flights/flight-view.ts';
import { readSoldSeats, soldAttribute } from '../flights/inventory.ts';
import {
  OFFER_TTL_SECONDS,
  type OfferQuote,
  type OpenedOffer,
  openOffer,
  sealOffer,
} from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import { priceItinerary } from '../flights/search.ts';
import { type BookingRecord, type BookingView, bookingView } from './booking.ts';
import {
  beginIdempotent,
  completionUpdate,
  type IdempotencyLock,
  requestFingerprint,
  type StoredOutcome,
  settleIdempotent,
} from './idempotency.ts';
import { newBookingId, newPnr } from './ids.ts';
import { type CreateBookingInput, passengerProblems } from './request.ts';

export interface BookingDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

/** A booking to make: the validated body, who asks, and the Idempotency-Key if one was sent. */
export interface BookingRequest {
  readonly body: CreateBookingInput;
  readonly session: Session;
  readonly idempotencyKey: string | undefined;
}

/** The booking made, or the outcome stored under the Idempotency-Key answered again. */
export interface BookingOutcome {
  readonly booking: BookingView;
  readonly replayed: boolean;
}

/** A transaction is tried again this often when it loses a race it can win on retry. */
const MAX_ATTEMPTS = 4;

/**
 * `POST /api/flights/booking/create`. After validation (passengers checked against the quote), the
 * checks of API.md §4.2 in order — offer issued to this agency (404), not expired (410), details as
 * quoted (409 FLIGHT_MISMATCH) — then one TransactWriteItems takes the seats in the quoted bucket on
 * every segment, writes the booking, reserves the PNR, marks the offer booked and completes the
 * Idempotency-Key: all of it or none of it.
 */
export function createBooking(deps: BookingDeps) {
  return async (request: BookingRequest): Promise<BookingOutcome> => {
    const { session, idempotencyKey: key } = request;
    const now = deps.clock.now();

    const opened = openOffer(deps.keys.offer, request.body.flight_id);
    const quote = opened?.agencyId === session.agencyId ? opened : undefined;
    const flights = quote && quotedFlights(quote);
    if (quote && flights?.[0]) {
      const problems = passengerProblems(
        request.body.passengers,
        quote.passengers,
        flights[0].date,
        isoSeconds(now).slice(0, 10),
      );
      if (problems.length > 0) throw new ValidationError(problems);
    }
    const offer = quote && flights ? { quote, flights } : undefined;
    const context = {
      deps,
      body: request.body,
      agentId: session.agentId,
      agencyId: session.agencyId,
      now,
      offer,
    };

    if (!key) return book(context, undefined);
    const begun = await beginIdempotent(deps, {
      agentId: session.agentId,
      key,
      fingerprint: requestFingerprint(request.body),
      now,
    });
    if (begun.kind === 'replay') return replay(begun.outcome);
    try {
      return await book(context, begun.lock);
    } catch (error) {
      await settleIdempotent(deps, begun.lock, storableOutcome(error));
      throw error;
    }
  };
}

interface BookingContext {
  deps: BookingDeps;
  body: CreateBookingInput;
  agentId: string;
  agencyId: string;
  now: number;
  offer: { quote: OpenedOffer; flights: ScheduledFlight[] } | undefined;
}

async function book(context: BookingContext, lock: IdempotencyLock | undefined): Promise<BookingOutcome> {
  const { deps, body, now, offer } = context;
  if (!offer) throw new FlightNotFoundError();
  const { quote, flights } = offer;
  if (now >= quote.expiresAt * 1000) throw new OfferExpiredError();
  const quoted = quotedFlightView(body.flight_id, quote, flights);
  const mismatches = flightMismatches(body, quoted);
  if (mismatches.length > 0) {
    // 410 comes before 409 (API.md §4.2): a booked offer is gone whatever the details say. Read only
    // when the details differ, so a good request still books in one transaction.
    if (await isOfferBooked(deps, quote)) throw new OfferExpiredError();
    throw new FlightMismatchError(mismatches);
  }

  const bookingId = newBookingId(now);
  for (let attempt = 1; ; attempt++) {
    const record: BookingRecord = {
      booking_id: bookingId,
      pnr: newPnr(),
      status: 'CONFIRMED',
      total: quote.total,
      currency: quote.currency,
      created_at: isoSeconds(now),
      departs_at: flights[0]?.departureAt ?? now,
      agency_id: context.agencyId,
      agent_id: context.agentId,
      travel_class: quote.travelClass,
      seats: seatsFor(quote.passengers),
      segments: quote.segments.map((s) => ({
        flight_number: s.flightNumber,
        date: s.date,
        bucket: s.bucket,
      })),
      flight: quoted,
      passengers: body.passengers,
      contact: body.contact,
    };
    const view = bookingView(record);
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: bookingTransaction(deps.tableName, record, flights, quote, lock, view),
        }),
      );
      return { booking: view, replayed: false };
    } catch (error) {
      const failed = cancellationCodes(error);
      if (!failed) throw error;
      const [inventory, pnr, offerBooked, idempotency] = [
        failed.slice(0, flights.length),
        failed[flights.length + 1],
        failed[flights.length + 2],
        failed[flights.length + 3],
      ];
      if (offerBooked === 'ConditionalCheckFailed') throw new OfferExpiredError();
      if (idempotency === 'ConditionalCheckFailed') throw new IdempotencyInProgressError();
      if (inventory.includes('ConditionalCheckFailed')) {
        const repriced = await reprice(context, quote, flights);
        if (repriced) throw repriced;
      }
      const retriable =
        pnr === 'ConditionalCheckFailed' ||
        failed.includes('TransactionConflict') ||
        failed.includes('ThrottlingError') ||
        inventory.includes('ConditionalCheckFailed');
      if (!retriable) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError(1);
      await sleep(10 * attempt + Math.random() * 20);
    }
  }
}

/**
 * The quoted bucket was gone on some segment: SOLD_OUT when the party no longer fits, else
 * PRICE_CHANGED with a fresh offer at today's price. Undefined when the quoted buckets are open again
 * (seats came back meanwhile), so the booking is simply tried again.
 */
async function reprice(
  context: BookingContext,
  quote: OfferQuote,
  flights: ScheduledFlight[],
): Promise<ApiError | undefined> {
  const { deps, now } = context;
  const sold = await readSoldSeats(deps, flights, quote.travelClass);
  const priced = priceItinerary(flights, quote.travelClass, quote.passengers, sold);
  if (!priced) return new SoldOutError();
  if (priced.buckets.every((bucket, i) => bucket === quote.segments[i]?.bucket)) return undefined;
  const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
  const fresh: OfferQuote = {
    ...quote,
    expiresAt,
    segments: quote.segments.map((s, i) => ({ ...s, bucket: priced.buckets[i] ?? s.bucket })),
    total: priced.total,
    seatsShown: Math.min(MAX_SEATS_SHOWN, priced.seatsLeft),
  };
  const id = sealOffer(deps.keys.offer, fresh);
  return new PriceChangedError({
    previous_total_price: quote.total / 100,
    total_price: priced.total / 100,
    currency: quote.currency,
    flight: flightView(
      { id, expiresAt, travelClass: quote.travelClass, passengers: quote.passengers },
      priced,
    ),
  });
}

/** The items of the one booking transaction, in a fixed order the cancellation reasons follow. */
function bookingTransaction(
  tableName: string,
  record: BookingRecord,
  flights: readonly ScheduledFlight[],
  quote: OpenedOffer,
  lock: IdempotencyLock | undefined,
  view: ReturnType<typeof bookingView>,
) {
  const takeSeats = flights.map((flight, i) => {
    const capacity = flight.leg.aircraft.seats[quote.travelClass] ?? 0;
    const limit = bucketLimits(quote.travelClass, capacity)[quote.segments[i]?.bucket ?? 0] ?? 0;
    return {
      Update: {
        TableName: tableName,
        Key: keys.inventory(flight.flightNumber, flight.date),
        // Nested buckets: the quoted bucket still sells while sold + seats stays within its limit.
        UpdateExpression: 'SET #sold = if_not_exists(#sold, :zero) + :seats',
        ConditionExpression: 'attribute_not_exists(#sold) OR #sold <= :maxSoldBefore',
        ExpressionAttributeNames: { '#sold': soldAttribute(quote.travelClass) },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':seats': record.seats,
          ':maxSoldBefore': limit - record.seats,
        },
      },
    };
  });
  return [
    ...takeSeats,
    {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.booking(record.booking_id),
          gsi1pk: gsi1.agency(record.agency_id),
          gsi1sk: `${record.created_at}#${record.booking_id}`,
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: { ...keys.pnr(record.pnr), booking_id: record.booking_id, agency_id: record.agency_id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.bookedOffer(quote.identity),
          booking_id: record.booking_id,
          ttl: quote.expiresAt + 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(lock ? [{ Update: completionUpdate(tableName, lock, { status: 201, data: view }) }] : []),
  ];
}

/** Whether the booked-offer marker exists: keyed on the quote's identity, never on the id's text. */
async function isOfferBooked(deps: BookingDeps, quote: OpenedOffer): Promise<boolean> {
  const marker = await deps.db.send(
    new GetCommand({
      TableName: deps.tableName,
      Key: keys.bookedOffer(quote.identity),
      ConsistentRead: true,
      ProjectionExpression: 'pk',
    }),
  );
  return marker.Item !== undefined;
}

/** The per-item codes of a cancelled transaction, or undefined for any other error. */
function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/** Compares the client's copy of the flight with the quote, one detail per differing field. */
export function flightMismatches(body: CreateBookingInput, quoted: FlightView): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const cents = (value: number) => Math.round(value * 100);
  const differ = (path: string, expected: unknown, received: unknown) =>
    details.push({ path, expected, received });
  const quotedCents = cents(quoted.total_price);

  if (body.flight_details.id !== body.flight_id)
    differ('flight_details.id', body.flight_id, body.flight_details.id);
  if (cents(body.flight_details.total_price) !== quotedCents) {
    differ('flight_details.total_price', quoted.total_price, body.flight_details.total_price);
  }
  if (body.flight_details.currency !== quoted.currency)
    differ('flight_details.currency', quoted.currency, body.flight_details.currency);
  if (cents(body.total_price) !== quotedCents) differ('total_price', quoted.total_price, body.total_price);
  if (body.currency !== quoted.currency) differ('currency', quoted.currency, body.currency);

  const sent = body.flight_details.outbound.segments;
  const expected = quoted.outbound.segments;
  if (sent.length !== expected.length) {
    differ('flight_details.outbound.segments', expected.length, sent.length);
    return details;
  }
  expected.forEach((segment, i) => {
    const mine = sent[i];
    if (!mine) return;
    const at = `flight_details.outbound.segments.${i}`;
    for (const field of ['carrier_name', 'flight_number', 'origin', 'destination'] as const) {
      if (mine[field] !== segment[field]) differ(`${at}.${field}`, segment[field], mine[field]);
    }
    if (Date.parse(mine.departure_at) !== Date.parse(segment.departure_at)) {
      differ(`${at}.departure_at`, segment.departure_at, mine.departure_at);
    }
  });
  return details;
}

/** What a request that ended in `error` leaves under its key: definite client answers only. */
function storableOutcome(error: unknown): StoredOutcome | undefined {
  if (!(error instanceof ApiError) || error.statusCode >= 500 || error.code === 'IDEMPOTENCY_IN_PROGRESS')
    return undefined;
  return {
    status: error.statusCode,
    error: { code: error.code, message: error.message, details: error.details },
  };
}

/** Answers a stored outcome again, marked as a replay. */
function replay(outcome: StoredOutcome): BookingOutcome {
  if (outcome.error) {
    throw new ReplayedError({
      code: outcome.error.code,
      message: outcome.error.message,
      details: outcome.error.details as ErrorDetail[] | Record<string, unknown> | undefined,
    });
  }
  return { booking: outcome.data as BookingView, replayed: true };
}
