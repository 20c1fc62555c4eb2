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

  try {
    // In the table one conditioned transaction; with a remote supplier, paid first under a claim.
    // With an Idempotency-Key, its answer is written with the confirm: no crash can split them.
    const done = await deps.orderFlow.confirmHold(deps, { record, price: body, lock });
    if (!('changed' in done)) return done;
    // Another call held the hold, and it changed meanwhile: answer what it became. (No hold is left
    // to confirm here: a late hold can no longer be claimed.)
    const answer = await alreadySettled(deps, done.changed, body);
    if (answer) return answer;
    throw new ServiceUnavailableError(2);
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    // Another confirm, a cancel or the expiry changed the booking first, or the deadline passed before
    // this write: answer what is stored now.
    const current = (await findBooking(deps, record.booking_id, agencyId)) ?? record;
    const answer = await alreadySettled(deps, current, body);
    if (answer) return answer;
    throw error;
  }
}

/**
 * What confirm answers for a booking that is not (or no longer) a hold it can confirm: the booking when
 * it is CONFIRMED at the price sent, or the error; undefined for a hold to confirm now. A remote hold
 * whose supplier is being paid by another request right now is one to confirm: its claim decides
 * (supply/remote/confirm.ts waits for it).
 *
 * A hold past its deadline is expired here (410, its seats back at once), or, when this expiry loses its
 * condition, the booking is read again and what won answered — a confirm in time (200), a cancel (409),
 * another expiry (410). A remote hold with a payment that may have gone through is settled by its
 * supplier's word first (supply/remote/hold.ts): paid, it is CONFIRMED; still unknown, 503.
 */
async function alreadySettled(
  deps: OrderDeps<ConfirmFlow>,
  record: BookingRecord,
  body: ConfirmBookingInput,
): Promise<BookingView | undefined> {
  let current = record;
  for (let tries = 0; ; tries++) {
    const samePrice =
      body.currency === current.currency &&
      minorUnits(String(body.total_price), current.currency) === current.total;
    if (current.status === 'CONFIRMED' && samePrice) return bookingView(current);
    const now = deps.clock.now();
    if (!isPastDeadline(current, now) || deps.orderFlow.holdCall(current, now) === 'live') {
      // A lapsed hold is 410 whether the sweep (or a read) has stored its expiry yet or not (docs/API.md §4.4).
      if (current.status === 'EXPIRED') throw new HoldExpiredError();
      if (current.status !== 'HELD') throw new NotHeldError();
      if (!samePrice) deps.orderFlow.checkHeldPrice(current, body);
      return undefined;
    }
    if (await expireHold(deps, current)) throw new HoldExpiredError();
    const read = await findBooking(deps, current.booking_id, current.agency_id);
    if (!read) throw notFound();
    // A payment left behind waits for its supplier's word (the sweep asks); one under way is waited for.
    const left = deps.orderFlow.holdCall(read, deps.clock.now()) === 'left';
    if (read.status === 'HELD' && (left || tries >= LATE_TRIES)) throw new ServiceUnavailableError(5);
    current = read;
  }
}

/** How often confirm re-reads a late hold that neither it nor anyone else could settle yet. */
const LATE_TRIES = 2;

/** A stored confirm answer, or the refusal it was. */
function replayed(outcome: StoredOutcome): BookingView {
  if (outcome.error) throw new ReplayedError(outcome.error);
  return parseBookingView(outcome.data);
}
