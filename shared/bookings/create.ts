import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { retrying, TRY_AGAIN } from '../db/retry.ts';
import { cancellationReasons } from '../db/transaction.ts';
import {
  FlightMismatchError,
  FlightNotFoundError,
  IdempotencyInProgressError,
  OfferExpiredError,
  ReplayedError,
  ValidationError,
} from '../errors.ts';
import { seatsFor } from '../flights/fares.ts';
import { quotedFlights, quotedFlightView } from '../flights/flight-view.ts';
import { type OpenedOffer, openOffer } from '../flights/offers.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import { isOfferBooked } from './booked-offer-item.ts';
import { type BookingDeps, bookingView } from './booking.ts';
import { type BookingRecord, type BookingView, parseBookingView } from './booking-item.ts';
import { flightMismatches } from './flight-mismatch.ts';
import {
  beginIdempotent,
  type IdempotencyLock,
  requestFingerprint,
  type StoredOutcome,
  settleIdempotent,
  storableOutcome,
} from './idempotency-item.ts';
import { newBookingId, newPnr } from './ids.ts';
import { reprice } from './reprice.ts';
import { type CreateBookingInput, passengerProblems } from './request.ts';
import { bookingTransaction } from './transaction.ts';

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

/**
 * `POST /api/flights/booking/create`. After validation (passengers checked against the quote), the
 * checks of docs/API.md §4.2 in order — offer issued to this agency (404), not expired (410), details as
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
      agentName: session.agentName,
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
  agentName: string;
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
    // 410 comes before 409 (docs/API.md §4.2): a booked offer is gone whatever the details say. Read only
    // when the details differ, so a good request still books in one transaction.
    if (await isOfferBooked(deps, quote.identity)) throw new OfferExpiredError();
    throw new FlightMismatchError(mismatches);
  }

  const bookingId = newBookingId(now);
  // A race this booking can win on another try (a PNR taken meanwhile, a conflict, seats that came
  // back) is tried again with a fresh PNR (db/retry.ts).
  return retrying(async () => {
    const record: BookingRecord = {
      booking_id: bookingId,
      pnr: newPnr(),
      status: 'CONFIRMED',
      total: quote.total,
      currency: quote.currency,
      created_at: isoSeconds(now),
      version: 1,
      updated_at: isoSeconds(now),
      departs_at: flights[0]?.departureAt ?? now,
      agency_id: context.agencyId,
      agent_id: context.agentId,
      created_by: { id: context.agentId, name: context.agentName },
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
    const transaction = bookingTransaction(deps.tableName, record, flights, quote, lock, view);
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: transaction.items }));
      return { booking: view, replayed: false };
    } catch (error) {
      const failed = cancellationReasons(error, transaction.slots);
      if (!failed) throw error;
      if (failed.conditionFailed('offer')) throw new OfferExpiredError();
      if (failed.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
      const seatsGone = failed.conditionFailed('seats');
      if (seatsGone) {
        const repriced = await reprice(deps, now, quote, flights);
        if (repriced) throw repriced;
      }
      const retriable =
        seatsGone ||
        failed.conditionFailed('pnr') ||
        failed.any('TransactionConflict') ||
        failed.any('ThrottlingError');
      if (!retriable) throw error;
      return TRY_AGAIN;
    }
  });
}

/** Answers a stored outcome again, marked as a replay. */
function replay(outcome: StoredOutcome): BookingOutcome {
  if (outcome.error) {
    throw new ReplayedError({
      code: outcome.error.code,
      message: outcome.error.message,
      details: outcome.error.details,
    });
  }
  return { booking: parseBookingView(outcome.data), replayed: true };
}
