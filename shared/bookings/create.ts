import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import {
  ApiError,
  FlightMismatchError,
  FlightNotFoundError,
  HoldNotAvailableError,
  OfferExpiredError,
  SupplierRejectedError,
  ValidationError,
} from '../errors.ts';
import type { SupplierOffer } from '../supply/port.ts';
import { isOfferBooked } from './entity/booked-offer-item.ts';
import { type BookingDeps, bookingView } from './entity/booking.ts';
import { shownPending } from './entity/booking-calls.ts';
import {
  type BookingRecord,
  type BookingView,
  findBooking,
  parseBookingView,
} from './entity/booking-item.ts';
import {
  type IdempotencyLock,
  idempotently,
  ReplayedError,
  type StoredOutcome,
} from './entity/idempotency-item.ts';
import { newBookingId } from './entity/ids.ts';
import { boughtExtras, checkedExtras, choseExtras } from './extras.ts';
import { flightMismatches } from './flight-mismatch.ts';
import type { BookableOffer, OfferDeps } from './flow.ts';
import { holdDeadline } from './holds.ts';
import { type CreateBookingInput, passengerProblems } from './request.ts';

/** A booking to make: the validated body, who asks, and the Idempotency-Key if one was sent. */
interface BookingRequest {
  readonly body: CreateBookingInput;
  readonly session: Session;
  readonly idempotencyKey: string | undefined;
}

/** The booking made, or the outcome stored under the Idempotency-Key answered again. */
interface BookingOutcome {
  readonly booking: BookingView;
  readonly replayed: boolean;
  /** 201, or 202 for a booking whose supplier order is not settled yet (docs/API.md §4.5). */
  readonly status: 201 | 202;
}

const answered = (booking: BookingView, replayed: boolean): BookingOutcome => ({
  booking,
  replayed,
  status: booking.status === 'PENDING' ? 202 : 201,
});

/**
 * `POST /api/flights/booking/create`. After validation (passengers checked against the quote), the
 * checks of docs/API.md §4.2 in order — offer issued to this agency (404), not expired (410), details as
 * quoted (409 FLIGHT_MISMATCH), the supplier's re-quote (409 SOLD_OUT / PRICE_CHANGED, 410) — then the
 * order through the supplier's flow (flow.ts): with the built-in network one TransactWriteItems takes the
 * seats in the quoted bucket on every segment, writes the booking, reserves the PNR, marks the offer
 * booked and completes the Idempotency-Key, all of it or none of it (in-table-flow.ts); with a remote
 * supplier see supply/remote/order.ts.
 */
export function createBooking(deps: OfferDeps) {
  return async (request: BookingRequest): Promise<BookingOutcome> => {
    const { session, idempotencyKey: key } = request;
    const now = deps.clock.now();

    const opened = deps.offerFlow.open(request.body.flight_id);
    const offer = opened?.agencyId === session.agencyId ? opened : undefined;
    // Born in the future is a 400 whatever the offer; ages and counts are judged once the offer opens.
    const problems = passengerProblems(
      request.body.passengers,
      offer ? { searched: offer.passengers, firstDepartureDate: offer.firstDepartureDate } : undefined,
      isoSeconds(now).slice(0, 10),
    );
    if (problems.length > 0) throw new ValidationError(problems);
    const context = {
      deps,
      body: request.body,
      agentId: session.agentId,
      agentName: session.agentName,
      agencyId: session.agencyId,
      now,
      offer,
    };

    return idempotently(
      deps,
      { agentId: session.agentId, key, body: request.body, now },
      (lock) => book(context, lock),
      (outcome) => replay(deps, outcome, session.agencyId),
    );
  };
}

/** A supplier offer that must be paid at once (Duffel's `requires_instant_payment`). */
const INSTANT_PAYMENT = 'The airline requires this offer to be paid at once; book it without a hold.';

interface BookingContext {
  deps: OfferDeps;
  body: CreateBookingInput;
  agentId: string;
  agentName: string;
  agencyId: string;
  now: number;
  offer: BookableOffer | undefined;
}

async function book(context: BookingContext, lock: IdempotencyLock | undefined): Promise<BookingOutcome> {
  const { deps, body, now, offer } = context;
  if (!offer) throw new FlightNotFoundError();
  if (now >= offer.expiresAt * 1000) throw new OfferExpiredError();
  const quoted = await requote(deps, offer, body.flight_id);
  if (!quoted) throw new FlightNotFoundError();
  // With bags or seats chosen, total_price includes them: it is checked against the offer and theirs below.
  const withExtras = choseExtras(body);
  const sent = withExtras ? { ...body, total_price: quoted.flight.total_price } : body;
  const mismatches = flightMismatches(sent, quoted.flight);
  if (mismatches.length > 0 || quoted.change) {
    // 410 comes before 409 (docs/API.md §4.2): a booked offer is gone whatever the details say. Read only
    // when something differs, so a good request still books with the fewest calls.
    if (await isOfferBooked(deps, offer.identity)) throw new OfferExpiredError();
    if (mismatches.length > 0) throw new FlightMismatchError(mismatches);
    throw quoted.change;
  }

  // A hold takes the seats exactly as a confirmed booking does, until its deadline (docs/API.md §4.4); a
  // remote supplier's hold order ends at the earlier of its deadline and this one (supply/remote/order.ts).
  if (body.hold && quoted.holdable === false) throw new HoldNotAvailableError(INSTANT_PAYMENT);
  const heldUntil = body.hold ? holdDeadline(quoted.departsAt, now, deps.config.HOLD_MINUTES) : undefined;
  const extras = withExtras ? await checkedExtras(offer, body, quoted.flight) : undefined;
  const record: BookingRecord = {
    booking_id: newBookingId(now),
    pnr: null,
    status: heldUntil === undefined ? 'CONFIRMED' : 'HELD',
    ...(heldUntil !== undefined && { payment_required_by: isoSeconds(heldUntil) }),
    total: offer.total + (extras?.cost ?? 0),
    currency: offer.currency,
    created_at: isoSeconds(now),
    updated_at: isoSeconds(now),
    version: 1,
    departs_at: quoted.departsAt,
    agency_id: context.agencyId,
    agent_id: context.agentId,
    created_by: { id: context.agentId, name: context.agentName },
    travel_class: offer.travelClass,
    // The flow fills in the seats an in-table order takes; a remote supplier's order holds them.
    seats: 0,
    segments: [],
    flight: quoted.flight,
    ...boughtExtras(extras, body.passengers, offer.currency),
    contact: body.contact,
  };
  // In the table, one transaction with the seats; with a remote supplier, PENDING first (flow.ts).
  return answered(await offer.book(deps, record, lock, extras?.seats), false);
}

/**
 * The supplier's re-quote. An offer the supplier no longer sells because it was booked here answers 410,
 * like any booked offer (docs/API.md §4.2), not the supplier's "gone".
 */
async function requote(deps: BookingDeps, offer: SupplierOffer, flightId: string) {
  try {
    return await offer.requote(flightId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode < 500 && (await isOfferBooked(deps, offer.identity))) {
      throw new OfferExpiredError();
    }
    throw error;
  }
}

/** What the order of a booking settled FAILED met: the supplier made none (docs/API.md §4.5). */
const NO_ORDER = new SupplierRejectedError([
  { message: 'The supplier made no order for this booking; nothing was charged. Search again to book.' },
]);

/**
 * Answers a stored outcome again, marked as a replay. A booking answered PENDING may have been settled
 * since (by the sweep): it is answered as it is now — 201 or 202, or, FAILED, the error its order met
 * (never a 2xx for a booking that failed).
 */
async function replay(deps: BookingDeps, outcome: StoredOutcome, agencyId: string): Promise<BookingOutcome> {
  if (outcome.error) throw new ReplayedError(outcome.error);
  const stored = parseBookingView(outcome.data);
  if (stored.status !== 'PENDING') return answered(stored, true);
  const current = await findBooking(deps, stored.booking_id, agencyId);
  if (current?.status === 'FAILED') throw new ReplayedError(NO_ORDER);
  if (current?.status === 'PENDING') return answered(bookingView(await shownPending(deps, current)), true);
  return answered(current ? bookingView(current) : stored, true);
}
