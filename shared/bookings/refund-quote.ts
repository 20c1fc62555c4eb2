import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { isoSeconds } from '../clock.ts';
import { NotCancellableError, NotFoundError, RefundChangedError } from '../errors.ts';
import { toMajor } from '../money.ts';
import type { CancellationQuote, OrdersSupplier, Refund } from '../supply/port.ts';
import '../zod-locale.ts';
import { type BookingDeps, isLateHold, refundWhere } from './entity/booking.ts';
import { type BookingRecord, findBooking, type RefundWhere } from './entity/booking-item.ts';
import { BookingId } from './entity/ids.ts';
import { conditionsRefund } from './journey-refund.ts';

/**
 * The refund quote (docs/API.md §4.3): what a cancel now would give back, changing nothing. A booking in
 * our own table refunds by the fare conditions it was sold with, as the booking keeps them (the price
 * less the penalty, or 0 for a fare that allows no refund); a remote supplier refunds what its own
 * cancellation quote says (asked for, never confirmed here); a HELD booking was never paid and refunds
 * 0. A cancel sent with the quote's `refund` cancels only if it still holds.
 * The request schema is built when first used (http/validate.ts).
 */
export const refundQuoteRequest = () => z.object({ booking_id: BookingId });

interface Money {
  amount: number;
  currency: string;
}

/** The built-in network's: back to the agency's account. */
const TO_BALANCE: RefundWhere = { refund_to: 'balance', airline_credits: [] };
/** A hold's: nothing was paid (Duffel's word for it). */
const UNPAID: RefundWhere = { refund_to: 'awaiting_payment', airline_credits: [] };

export interface RefundQuoteView extends RefundWhere {
  booking_id: string;
  /** Null when the supplier does not know it: never 0 (docs/API.md §4.3). */
  refund: Money | null;
  /**
   * What the cancel keeps of the price; null when it keeps nothing, and also when it cannot be stated
   * in the refund's currency (then `penalty_unknown`).
   */
  penalty: Money | null;
  /** Only when true: the refund is unknown, or in another currency than the price. */
  penalty_unknown?: true;
  /**
   * Until when the quote holds: the supplier's quote's expiry, the hold's deadline, the first
   * departure; null when the supplier states none.
   */
  expires_at: string | null;
}

/** 409 REFUND_CHANGED: the refund the caller expected, the refund now, and the quote that gives it. */
export const refundChanged = (expected: Money, quote: RefundQuoteView) =>
  new RefundChangedError('The refund has changed; nothing was cancelled. See the fresh quote in details.', {
    details: { previous_refund: expected, refund: quote.refund, quote },
  });

/**
 * The quote a booking `record` gets when its refund is `refund` (minor units; null: unknown) until
 * `until` (epoch ms; null: no end stated), going `where`: the penalty is what was paid (nothing for a
 * hold) less the refund, in the price's currency — unknown when the refund is, or is in another
 * currency (a refund of nothing keeps everything paid, in any currency).
 */
function quoteOf(
  record: BookingRecord,
  refund: Refund | null,
  until: number | null,
  where: RefundWhere = TO_BALANCE,
): RefundQuoteView {
  const paid = record.status === 'HELD' ? 0 : record.total;
  const comparable = refund?.currency === record.currency || refund?.amount === 0;
  const kept = refund && comparable ? paid - refund.amount : undefined;
  return {
    booking_id: record.booking_id,
    refund: refund && { amount: toMajor(refund.amount, refund.currency), currency: refund.currency },
    penalty:
      kept !== undefined && kept > 0
        ? { amount: toMajor(kept, record.currency), currency: record.currency }
        : null,
    ...(kept === undefined && { penalty_unknown: true as const }),
    expires_at: until === null ? null : isoSeconds(Math.min(until, record.departs_at)),
    ...where,
  };
}

/** The quote from a remote supplier's cancellation quote. */
export const refundQuoteView = (record: BookingRecord, quote: CancellationQuote): RefundQuoteView =>
  quoteOf(
    record,
    quote.refund,
    quote.expiresAt === null ? null : Date.parse(quote.expiresAt),
    refundWhere(quote),
  );

/** The quote by the fare conditions the booking was sold with (journey by journey), until its first departure. */
export function conditionsQuote(record: BookingRecord): RefundQuoteView {
  const refund = conditionsRefund(record);
  return quoteOf(record, { amount: refund, currency: record.currency }, record.departs_at);
}

/** The part of booking's flow (flow.ts) the refund quote asks. */
interface Quoting {
  ownRefund(record: BookingRecord): RefundQuoteView | undefined;
  quoteRefund(record: BookingRecord): Promise<RefundQuoteView>;
}

/**
 * The quote our own rule gives, without asking anyone: a hold refunds 0 until its deadline; a booking
 * in the table refunds what the conditions it was sold with allow ({@link conditionsQuote}).
 * Undefined for a remote CONFIRMED booking, whose supplier quotes.
 */
export function ownRefundQuote(
  record: BookingRecord,
  flow: Pick<Quoting, 'ownRefund'>,
): RefundQuoteView | undefined {
  if (record.status === 'HELD') {
    const deadline = Date.parse(record.payment_required_by ?? '') || record.departs_at;
    return quoteOf(record, { amount: 0, currency: record.currency }, deadline, UNPAID);
  }
  return flow.ownRefund(record);
}

/** `POST /api/flights/booking/refund-quote`: 409 NOT_CANCELLABLE unless a cancel now would cancel. */
export function quoteRefund(deps: BookingDeps<OrdersSupplier> & { readonly orderFlow: Quoting }) {
  return async (
    body: z.output<ReturnType<typeof refundQuoteRequest>>,
    { agencyId }: Session,
  ): Promise<RefundQuoteView> => {
    const record = await findBooking(deps, body.booking_id, agencyId);
    if (!record) throw new NotFoundError('No such booking in your agency.');
    const now = deps.clock.now();
    if ((record.status !== 'CONFIRMED' && record.status !== 'HELD') || isLateHold(record, now)) {
      throw new NotCancellableError(
        `A ${isLateHold(record, now) ? 'EXPIRED' : record.status} booking cannot be cancelled.`,
      );
    }
    if (now >= record.departs_at) throw new NotCancellableError();
    return ownRefundQuote(record, deps.orderFlow) ?? (await deps.orderFlow.quoteRefund(record));
  };
}
