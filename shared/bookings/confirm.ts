import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { cancellationCodes } from '../db/client.ts';
import { HoldExpiredError, NotFoundError, NotHeldError, ServiceUnavailableError } from '../errors.ts';
import { minorUnits } from '../money.ts';
import '../zod-locale.ts';
import { bookingView, isPastDeadline } from './entity/booking.ts';
import {
  type BookingRecord,
  type BookingView,
  findBooking,
  parseBookingView,
} from './entity/booking-item.ts';
import {
  completionUpdate,
  type IdempotencyLock,
  idempotently,
  ReplayedError,
  type StoredOutcome,
} from './entity/idempotency-item.ts';
import { BookingId } from './entity/ids.ts';
import type { ConfirmFlow, OrderDeps } from './flow.ts';
import { expireHold } from './holds.ts';
import { currency, money } from './request.ts';

/** The request of `POST /api/flights/booking/confirm` (docs/API.md §4.4); built when first used. */
export const confirmBookingRequest = () =>
  z.object({
    booking_id: BookingId,
    total_price: money().check(
      z.meta({
        description:
          'The hold’s current price, for all passengers together: major currency units, at most 2 decimals',
      }),
    ),
    currency: currency(),
  });
type ConfirmBookingInput = z.output<ReturnType<typeof confirmBookingRequest>>;

const notFound = () => new NotFoundError('No such booking in your agency.');

/**
 * `POST /api/flights/booking/confirm`: HELD → CONFIRMED at most once (docs/API.md §4.4). The price sent
 * must be the hold's price (409 PRICE_CHANGED with the price to confirm at); after the deadline 410
 * HOLD_EXPIRED, before and after the sweep stored EXPIRED (the seats go back at once if it has not got
 * there); anything else not HELD is 409 NOT_HELD, except a booking already CONFIRMED at that price,
 * answered 200 so a retry is safe. One transaction conditioned on the booking still being HELD before
 * its deadline by the clock as it writes (the deadline rule, booking.ts): confirms racing each other, a
 * cancel or the expiry change the booking exactly once, and each loser reads again and answers what won.
 */
export function confirmBooking(deps: OrderDeps<ConfirmFlow>) {
  return async (request: {
    body: ConfirmBookingInput;
    session: Session;
    idempotencyKey: string | undefined;
  }): Promise<{ booking: BookingView; replayed: boolean }> => {
    const { body, session } = request;
    const now = deps.clock.now();
    return idempotently<{ booking: BookingView; replayed: boolean }>(
      deps,
      { agentId: session.agentId, key: request.idempotencyKey, body, now },
      async (lock) => ({ booking: await confirm(deps, body, session.agencyId, lock), replayed: false }),
      async (outcome) => ({ booking: replayed(outcome), replayed: true }),
    );
  };
}

async function confirm(
  deps: OrderDeps<ConfirmFlow>,
  body: ConfirmBookingInput,
  agencyId: string,
  lock: IdempotencyLock | undefined,
): Promise<BookingView> {
  const record = await findBooking(deps, body.booking_id, agencyId);
  if (!record) throw notFound();
  const settled = await alreadySettled(deps, record, body);
  if (settled) return settled;

  const reread = async () => {
    const current = (await findBooking(deps, record.booking_id, agencyId)) ?? record;
    return { record: current, answer: await alreadySettled(deps, current, body) };
  };
  try {
    // In the table one conditioned transaction; with a remote supplier, paid first under a claim.
    // With an Idempotency-Key, its answer is written with the confirm: no crash can split them.
    const answer = (view: BookingView) =>
      lock ? [{ Update: completionUpdate(deps.tableName, lock, { status: 200, data: view }) }] : [];
    return await deps.orderFlow.confirmHold(deps, { record, price: body, answer, reread });
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    // Another confirm, a cancel or the expiry changed the booking first, or the deadline passed before
    // this write: answer what is stored now.
    const { answer } = await reread();
    if (answer) return answer;
    throw error;
  }
}

/**
 * What confirm answers for a booking that is not (or no longer) a hold it can confirm: the booking when
 * it is CONFIRMED at the price sent, or the error; undefined for a hold to confirm now. A remote hold
 * whose supplier is being paid by another request right now is one to confirm: its claim decides
 * (supply/remote/confirm.ts waits for it).
 */
async function alreadySettled(
  deps: OrderDeps<ConfirmFlow>,
  record: BookingRecord,
  body: ConfirmBookingInput,
  tries = 0,
): Promise<BookingView | undefined> {
  const samePrice =
    body.currency === record.currency &&
    minorUnits(String(body.total_price), record.currency) === record.total;
  if (record.status === 'CONFIRMED' && samePrice) return bookingView(record);
  const now = deps.clock.now();
  if (isPastDeadline(record, now) && deps.orderFlow.holdCall(record, now) !== 'live')
    return lateHold(deps, record, body, tries);
  // A lapsed hold is 410 whether the sweep (or a read) has stored its expiry yet or not (docs/API.md §4.4).
  if (record.status === 'EXPIRED') throw new HoldExpiredError();
  if (record.status !== 'HELD') throw new NotHeldError();
  if (!samePrice) deps.orderFlow.checkHeldPrice(record, body);
  return undefined;
}

/** How often confirm re-reads a late hold that neither it nor anyone else could settle yet. */
const LATE_TRIES = 2;

/**
 * A hold past its deadline: expired here (410, its seats back at once), or, when this expiry loses its
 * condition, what the stored booking says won — a confirm in time (200), a cancel (409), another
 * expiry (410). A remote hold with a payment that may have gone through is settled by its supplier's
 * word first (supply/remote/hold.ts): paid, it is CONFIRMED; still unknown, 503.
 */
async function lateHold(
  deps: OrderDeps<ConfirmFlow>,
  record: BookingRecord,
  body: ConfirmBookingInput,
  tries: number,
): Promise<BookingView | undefined> {
  if (await expireHold(deps, record)) throw new HoldExpiredError();
  const current = await findBooking(deps, record.booking_id, record.agency_id);
  if (!current) throw notFound();
  // A payment left behind waits for its supplier's word (the sweep asks); one under way is waited for.
  const left = deps.orderFlow.holdCall(current, deps.clock.now()) === 'left';
  if (current.status === 'HELD' && (left || tries >= LATE_TRIES)) throw new ServiceUnavailableError(5);
  return alreadySettled(deps, current, body, tries + 1);
}

/** A stored confirm answer, or the refusal it was. */
function replayed(outcome: StoredOutcome): BookingView {
  if (outcome.error) throw new ReplayedError(outcome.error);
  return parseBookingView(outcome.data);
}
