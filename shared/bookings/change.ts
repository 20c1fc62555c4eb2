import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { TRY_AGAIN } from '../db/retry.ts';
import { slotted, transact } from '../db/transaction.ts';
import {
  ChangePriceChangedError,
  ConditionsChangedError,
  IdempotencyInProgressError,
  NotChangeableError,
  NotFoundError,
  OfferExpiredError,
  SoldOutError,
} from '../errors.ts';
import type { BookedTrip, ChangeTerms } from '../flights/change-offers.ts';
import {
  type ChangeOfferView,
  type ChangeQuote,
  changeFlights,
  changeOfferView,
  conditionsMovedSince,
  freshQuote,
  openChange,
  requoteChange,
  sealChange,
} from '../flights/change-quote.ts';
import { bucketLimits, seatsFor } from '../flights/fares.ts';
import { returnSeatsUpdate, takeSeatsUpdate } from '../flights/inventory-item.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { SearchDeps } from '../flights/search.ts';
import { minorUnits, toMajor } from '../money.ts';
import '../zod-locale.ts';
import { changedRecord } from './change-record.ts';
import { changeableTrip, changeTerms } from './change-rules.ts';
import { notFound } from './change-search.ts';
import { bookingView } from './entity/booking.ts';
import { changeWrites } from './entity/booking-ends.ts';
import {
  type BookingRecord,
  type BookingView,
  changeLostToAnotherWrite,
  changeStamp,
  findBooking,
  parseBookingView,
} from './entity/booking-item.ts';
import { type IdempotencyLock, idempotently, ReplayedError } from './entity/idempotency-item.ts';
import { BookingId } from './entity/ids.ts';
import type { ChangeFlow, OrderDeps } from './flow.ts';
import { currency } from './request.ts';

/** A change's total: may be negative (money back), at most 2 decimals. */
const signedMoney = () =>
  z.number('must be a number').check(
    z.refine((value) => Math.abs(value) <= 1_000_000, 'must be between -1000000 and 1000000'),
    z.refine((value) => /^-?\d+(\.\d{1,2})?$/.test(String(value)), 'must have at most 2 decimals'),
    z.meta({
      description: 'Major currency units, at most 2 decimals; negative is money back',
      multipleOf: 0.01,
    }),
  );

/** The request schema, built when first used (http/validate.ts), never at import. */
export const changeBookingRequest = () =>
  z.object({
    booking_id: BookingId,
    change_offer_id: z
      .string()
      .check(z.minLength(1, 'must be a change offer id'), z.maxLength(2048, 'must be a change offer id')),
    change_total: z.object({ amount: signedMoney(), currency: currency() }).check(
      z.meta({
        description:
          'The change offer’s `change_total` as quoted: the change is made only at exactly this total',
      }),
    ),
  });
type ChangeBookingInput = z.output<ReturnType<typeof changeBookingRequest>>;

interface ChangeRequest {
  readonly body: ChangeBookingInput;
  readonly session: Session;
  readonly idempotencyKey: string | undefined;
}

/**
 * `POST /api/flights/booking/change` (docs/API.md §4.9): checks in order — the booking (404), the change
 * offer issued for it (404), changeable (409 NOT_CHANGEABLE), not expired and the booking unchanged
 * since (410), the total as quoted (409 PRICE_CHANGED with a fresh ChangeOffer) — then one transaction:
 * the booking's new flights at the version quoted, the old seats of the changed journeys back, the new
 * ones taken in the quoted buckets, and the Idempotency-Key's answer.
 */
export function changeBooking(deps: SearchDeps & OrderDeps<ChangeFlow>) {
  return async (request: ChangeRequest): Promise<{ booking: BookingView; replayed: boolean }> => {
    const { body, session } = request;
    const now = deps.clock.now();
    return idempotently(
      deps,
      { agentId: session.agentId, key: request.idempotencyKey, body, now },
      async (lock): Promise<{ booking: BookingView; replayed: boolean }> => ({
        // A supplier's own changes (docs/API.md §4.9), given by the stage's flow; none: the in-table one below.
        booking: deps.orderFlow.changes
          ? await deps.orderFlow.changes.change(deps, request, lock)
          : await change(deps, request, lock),
        replayed: false,
      }),
      async (outcome) => {
        if (outcome.error) throw new ReplayedError(outcome.error);
        return { booking: parseBookingView(outcome.data), replayed: true };
      },
    );
  };
}

/** The checked change: the booking, its trip, the quote and its terms. */
interface Checked {
  readonly record: BookingRecord;
  readonly trip: BookedTrip;
  readonly quote: ChangeQuote;
  readonly terms: ChangeTerms;
  readonly flights: ScheduledFlight[];
}

async function check(deps: SearchDeps, { body, session }: ChangeRequest): Promise<Checked> {
  const record = await findBooking(deps, body.booking_id, session.agencyId);
  if (!record) throw notFound();
  const quote = openChange(deps.keys.offer, body.change_offer_id);
  if (!quote || quote.agencyId !== session.agencyId || quote.bookingId !== record.booking_id)
    throw new NotFoundError('No such change offer for this booking.');
  const now = deps.clock.now();
  if (record.status !== 'CONFIRMED')
    throw new NotChangeableError(`A ${record.status} booking cannot be changed.`);
  // 410 before the conditions: a booking changed since is judged by its new fare, not the one quoted.
  if (now >= quote.expiresAt * 1000 || changeStamp(record).version !== quote.version)
    throw new OfferExpiredError();
  const trip = changeableTrip(record, quote.changed, now);
  const terms = changeTerms(record.flight, quote.changed, record.currency);
  const flights = changeFlights(quote);
  if (!flights) throw new SoldOutError();
  const { amount } = body.change_total;
  const sent =
    Math.sign(amount) * (minorUnits(String(Math.abs(amount)), body.change_total.currency) ?? Number.NaN);
  const checked = { record, trip, quote, terms, flights };
  if (body.change_total.currency !== record.currency || sent !== quote.changeTotal)
    throw await priceChanged(deps, checked, body.change_total.amount);
  if (conditionsMovedSince(quote, changeOfferView(body.change_offer_id, quote, trip, flights)))
    throw await conditionsChanged(deps, checked);
  return checked;
}

/** The change as it is offered now: a fresh ChangeOffer, or SOLD_OUT when it no longer seats the party. */
async function offeredNow(deps: SearchDeps, checked: Checked): Promise<ChangeOfferView | Error> {
  const { quote, trip, terms } = checked;
  const requoted = await requoteChange(deps, quote, trip, terms);
  if (requoted === 'sold-out') return new SoldOutError();
  const fresh = freshQuote(quote, requoted, deps.clock.now(), trip, checked.flights);
  const flights = changeFlights(fresh) ?? checked.flights;
  return changeOfferView(sealChange(deps.keys.offer, fresh), fresh, trip, flights);
}

/**
 * The conditions moved since change-search: the price comes first, as at create (a moved price is 409
 * PRICE_CHANGED), else 409 CONDITIONS_CHANGED with the fresh ChangeOffer (`flight` and `change_offer`).
 */
async function conditionsChanged(deps: SearchDeps, checked: Checked): Promise<Error> {
  const offer = await offeredNow(deps, checked);
  if (offer instanceof Error) return offer;
  if (offer.change_total.amount !== toMajor(checked.quote.changeTotal, checked.record.currency))
    return priceChanged(deps, checked, toMajor(checked.quote.changeTotal, checked.record.currency), offer);
  return new ConditionsChangedError({ flight: offer.flight, change_offer: offer });
}

/** 409 PRICE_CHANGED with the change as it is offered now (SOLD_OUT when it no longer seats the party). */
async function priceChanged(
  deps: SearchDeps,
  checked: Checked,
  previous: number,
  now?: ChangeOfferView,
): Promise<Error> {
  const offer = now ?? (await offeredNow(deps, checked));
  if (offer instanceof Error) return offer;
  return new ChangePriceChangedError({
    previous_total_price: previous,
    total_price: offer.change_total.amount,
    currency: offer.change_total.currency,
    change_offer: offer,
  });
}

async function change(
  deps: SearchDeps,
  request: ChangeRequest,
  lock: IdempotencyLock | undefined,
): Promise<BookingView> {
  const checked = await check(deps, request);
  const { record, quote, trip, flights } = checked;
  const at = isoSeconds(deps.clock.now());
  const offer = changeOfferView(request.body.change_offer_id, quote, trip, flights);
  const from = quote.changed.flatMap(
    (j) =>
      record.flight.slices?.[j]?.segments ??
      (j === 0 ? record.flight.outbound.segments : (record.flight.inbound?.segments ?? [])),
  );
  const to = quote.changed.flatMap((j) => offer.flight.slices[j]?.segments ?? []);
  const by = { id: request.session.agentId, name: request.session.agentName };
  const entry = { at, by, from, to, change_total: offer.change_total };
  const kept = changedRecord(record, quote, flights, { travelClass: record.travel_class });
  const departsAt = flights[0]?.departureAt ?? record.departs_at;
  const changed = { at, flight: offer.flight, ...kept, departs_at: departsAt, change: entry };
  // The bags the change leaves are `changed.services` (none left: none).
  const { services: _, ...unchanged } = record;
  const view = bookingView({
    ...unchanged,
    ...changed,
    updated_at: at,
    version: changeStamp(record).version + 1,
    changes: [...(record.changes ?? []), entry],
  });
  const seats = changeSeats(deps, checked);
  return transact(
    deps.db,
    () => slotted(changeWrites(deps.tableName, record, { ...changed, view, lock }, seats)),
    {
      written: () => view,
      cancelled: async (failed, error): Promise<typeof TRY_AGAIN> => {
        if (failed.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
        if (failed.conditionFailed('booking')) throw await changeLostToAnotherWrite(deps, record);
        if (failed.conditionFailed('seats')) {
          const requoted = await requoteChange(deps, quote, trip, checked.terms);
          if (requoted === 'sold-out') throw new SoldOutError();
          if (requoted !== 'same')
            throw await priceChanged(deps, checked, toMajor(quote.changeTotal, record.currency));
          return TRY_AGAIN;
        }
        if (failed.any('TransactionConflict') || failed.any('ThrottlingError')) return TRY_AGAIN;
        throw error;
      },
    },
  );
}

/**
 * The old seats of the changed journeys back (the seats chosen on them too), the new ones taken in
 * their quoted buckets.
 */
function changeSeats(deps: SearchDeps, { record, quote, trip, flights }: Checked) {
  const seats = seatsFor(trip.passengers);
  const starts = trip.journeys.map((_, j) =>
    trip.journeys.slice(0, j).reduce((n, journey) => n + journey.segments.length, 0),
  );
  const back = quote.changed.flatMap((j) =>
    (trip.journeys[j]?.segments ?? []).map((f, i) => {
      const chosen = record.segments[(starts[j] ?? 0) + i]?.seats;
      return { Update: returnSeatsUpdate(deps.tableName, f, record.travel_class, record.seats, chosen) };
    }),
  );
  const kept = new Set(trip.journeys.flatMap((j, i) => (quote.changed.includes(i) ? [] : j.segments)));
  const taken = flights.flatMap((flight, i) => {
    if (
      kept.has(flight) ||
      [...kept].some((k) => k.flightNumber === flight.flightNumber && k.date === flight.date)
    )
      return [];
    const capacity = flight.leg.aircraft.seats[trip.travelClass] ?? 0;
    const limit = bucketLimits(trip.travelClass, capacity)[quote.segments[i]?.bucket ?? 0] ?? 0;
    return [{ Update: takeSeatsUpdate(deps.tableName, flight, trip.travelClass, seats, limit - seats) }];
  });
  return { back, taken };
}
