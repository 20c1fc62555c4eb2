import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { cancellationCodes } from '../db/client.ts';
import {
  HoldExpiredError,
  NotFoundError,
  NotHeldError,
  PriceChangedError,
  ServiceUnavailableError,
} from '../errors.ts';
import { minorUnits, toMajor } from '../money.ts';
import '../zod-locale.ts';
import type { CancellingSupplier } from '../supply/port.ts';
import { type BookingDeps, bookingView, isPastDeadline } from './booking.ts';
import {
  type BookingRecord,
  type BookingView,
  changeStamp,
  findBooking,
  parseBookingView,
} from './booking-item.ts';
import { confirmHoldUpdate } from './booking-updates.ts';
import { heldRemoval } from './held-item.ts';
import { expireHold } from './holds.ts';
import {
  completionUpdate,
  type IdempotencyLock,
  idempotently,
  ReplayedError,
  type StoredOutcome,
} from './idempotency-item.ts';
import { BookingId } from './ids.ts';
import { Currency, Money } from './request.ts';

/** The request of `POST /api/flights/booking/confirm` (docs/API.md §4.4). */
export const ConfirmBookingRequest = z.object({
  booking_id: BookingId,
  total_price: Money.check(
    z.meta({
      description:
        'The hold’s current price, for all passengers together: major currency units, at most 2 decimals',
    }),
  ),
  currency: Currency,
});
export type ConfirmBookingInput = z.output<typeof ConfirmBookingRequest>;

const notFound = () => new NotFoundError('No such booking in your agency.');

/**
 * `POST /api/flights/booking/confirm`: HELD → CONFIRMED at most once (docs/API.md §4.4). The price sent
 * must be the hold's price (409 PRICE_CHANGED with the price to confirm at); after the deadline 410
 * HOLD_EXPIRED, before and after the sweep stored EXPIRED (the seats go back at once if it has not got
 * there); anything else not HELD is 409 NOT_HELD, except a booking already CONFIRMED at that price, answered 200 so a retry is safe. One
 * transaction conditioned on the booking still being HELD before its deadline: confirms racing each
 * other, a cancel or the expiry change the booking exactly once, and each loser answers what won.
 */
export function confirmBooking(deps: BookingDeps<CancellingSupplier>) {
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
      async (lock) => ({ booking: await confirm(deps, body, session.agencyId, now, lock), replayed: false }),
      async (outcome) => ({ booking: replayed(outcome), replayed: true }),
    );
  };
}

async function confirm(
  deps: BookingDeps<CancellingSupplier>,
  body: ConfirmBookingInput,
  agencyId: string,
  now: number,
  lock: IdempotencyLock | undefined,
): Promise<BookingView> {
  const record = await findBooking(deps, body.booking_id, agencyId);
  if (!record) throw notFound();
  const settled = await alreadySettled(deps, record, body, now);
  if (settled) return settled;

  const at = isoSeconds(now);
  const confirmed: BookingRecord = {
    ...record,
    status: 'CONFIRMED',
    payment_required_by: undefined,
    updated_at: at,
    version: changeStamp(record).version + 1,
  };
  const { payment_required_by: deadline = '' } = record;
  const view = bookingView(confirmed);
  try {
    const { cancelling } = deps.supplier;
    if (cancelling.kind === 'remote' && process.env.BUNDLED_SUPPLIER !== 'network') {
      // The supplier is paid first, under a claim on the hold (remote-confirm.ts).
      const { confirmRemoteHold } = await import('./remote-confirm.ts');
      return await confirmRemoteHold(deps, cancelling, {
        record,
        price: body,
        lock,
        reread: async () => {
          const current = (await findBooking(deps, record.booking_id, agencyId)) ?? record;
          return { record: current, answer: await alreadySettled(deps, current, body, deps.clock.now()) };
        },
      });
    }
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: confirmHoldUpdate(deps.tableName, { ...record, ...changeStamp(record) }, at) },
          {
            Delete: heldRemoval(deps.tableName, {
              booking_id: record.booking_id,
              payment_required_by: deadline,
            }),
          },
          ...(lock ? [{ Update: completionUpdate(deps.tableName, lock, { status: 200, data: view }) }] : []),
        ],
      }),
    );
    return view;
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    // Another confirm, a cancel or the expiry changed the booking first: answer what it is now.
    const current = await findBooking(deps, record.booking_id, agencyId);
    const outcome = current && (await alreadySettled(deps, current, body, deps.clock.now()));
    if (outcome) return outcome;
    throw error;
  }
}

/**
 * What confirm answers for a booking that is not (or no longer) a hold it can confirm: the booking when
 * it is CONFIRMED at the price sent, or the error; undefined for a hold to confirm now.
 */
async function alreadySettled(
  deps: BookingDeps<CancellingSupplier>,
  record: BookingRecord,
  body: ConfirmBookingInput,
  now: number,
): Promise<BookingView | undefined> {
  const samePrice =
    body.currency === record.currency &&
    minorUnits(String(body.total_price), record.currency) === record.total;
  if (record.status === 'CONFIRMED' && samePrice) return bookingView(record, now);
  if (isPastDeadline(record, now)) return lateHold(deps, record, body, now);
  // A lapsed hold is 410 whether the sweep has stored its expiry yet or not (docs/API.md §4.4).
  if (record.status === 'EXPIRED') throw new HoldExpiredError();
  if (record.status !== 'HELD') throw new NotHeldError();
  // A remote supplier may have moved a held price: its order's amount is checked under the claim.
  if (!samePrice && deps.supplier.cancelling.kind === 'in-table') {
    throw new PriceChangedError({
      previous_total_price: body.total_price,
      total_price: toMajor(record.total, record.currency),
      currency: record.currency,
    });
  }
  return undefined;
}

/**
 * A hold past its deadline: 410, its seats back at once. A remote hold with a payment that may have
 * gone through is settled by its supplier's word first (remote-hold.ts): paid, it is CONFIRMED.
 */
async function lateHold(
  deps: BookingDeps<CancellingSupplier>,
  record: BookingRecord,
  body: ConfirmBookingInput,
  now: number,
): Promise<BookingView | undefined> {
  if ((await expireHold(deps, record, now)) || !record.hold_call) throw new HoldExpiredError();
  const current = await findBooking(deps, record.booking_id, record.agency_id);
  if (current?.status === 'CONFIRMED') return alreadySettled(deps, current, body, now);
  if (current?.status === 'HELD') throw new ServiceUnavailableError(5);
  throw new HoldExpiredError();
}

/** A stored confirm answer, or the refusal it was. */
function replayed(outcome: StoredOutcome): BookingView {
  if (outcome.error) throw new ReplayedError(outcome.error);
  return parseBookingView(outcome.data);
}
