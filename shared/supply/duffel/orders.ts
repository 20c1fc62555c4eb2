import type {} from '@duffel/api';
import type { Order, OrderCancellation, OrderCancellationAirlineCredit } from '@duffel/api/types';
import { NotCancellableError, ServiceUnavailableError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import { minorUnits } from '../../money.ts';
import {
  type AirlineCredit,
  type CancellationOutcome,
  type CancellationQuote,
  NOTHING_STATED,
  REFUND_DESTINATIONS,
  type Refund,
  type Refunded,
  type RefundTo,
  type SuppliedBooking,
  type SupplierOrder,
} from '../port.ts';
import { DuffelNoAnswer, DuffelRefusal, type DuffelSend, supplierUnavailable } from './client.ts';
import { refusalError } from './refusals.ts';

/**
 * Duffel's order as far as a booking cares. An order without what Duffel documents as always there (its
 * id, booking reference, payment status) is an answer we cannot read: no answer to trust (503, or a
 * PENDING booking that the sweep settles by asking again), never a booking without its PNR.
 */
export function supplierOrder(order: Order): SupplierOrder {
  const readable = (order as Partial<Order> | null)?.payment_status && order.id && order.booking_reference;
  if (!readable || typeof order.booking_reference !== 'string') {
    throw new DuffelNoAnswer('unreadable order', true);
  }
  return {
    orderId: order.id,
    bookingReference: order.booking_reference,
    total: minorUnits(order.total_amount, order.total_currency) ?? 0,
    currency: order.total_currency,
    cancelled: Boolean(order.cancelled_at),
    awaitingPayment: order.payment_status.awaiting_payment,
    ...(order.payment_status.payment_required_by && {
      paymentRequiredBy: order.payment_status.payment_required_by,
    }),
    // A cancelled order without its cancellation says nothing of the refund: unknown, never 0.
    ...(order.cancelled_at && {
      cancellation: order.cancellation
        ? refundedOf(order.cancellation, order.total_currency)
        : NOTHING_STATED,
    }),
  };
}

type Fail = (error: unknown, pathOf: (field: string | undefined) => string | undefined) => never;

/** The order as Duffel holds it now (a read: repeated after an unknown outcome). */
export async function readOrder(send: DuffelSend, orderId: string, fail: Fail): Promise<SupplierOrder> {
  try {
    const path = `/air/orders/${encodeURIComponent(orderId)}`;
    return supplierOrder((await send<Order>({ method: 'GET', path, repeatable: true })).data);
  } catch (error) {
    return fail(error, () => undefined);
  }
}

/**
 * Cancel = Duffel's cancellation quote, then its confirmation (a hold's cancel, under its claim); an order
 * already cancelled answers its refund. An outcome Duffel did not give is a 503: never confirmed again.
 */
export async function cancelOrder(
  send: DuffelSend,
  order: { id: string; currency: string },
  fail: Fail,
  log: Logger,
): Promise<Refunded> {
  const quote = await quoteCancellation(send, order.id, order.currency, log);
  const outcome = quote === 'cancelled' ? undefined : await confirmCancellation(send, quote, log);
  if (outcome?.kind === 'refused') throw outcome.error;
  if (outcome?.kind === 'cancelled') return outcome;
  const now = await readOrder(send, order.id, fail);
  if (!now.cancelled) throw new ServiceUnavailableError(5);
  return now.cancellation ?? NOTHING_STATED;
}

/**
 * Duffel refusing a cancellation (the airline does not allow it, the order is no longer cancellable) is
 * 409 NOT_CANCELLABLE with our own words: Duffel's message is logged by its code, never answered. A
 * refused token stays a 503 (refusals.ts).
 */
function cancellationRefused(refusal: DuffelRefusal, log: Logger) {
  const mapped = refusalError(refusal, () => undefined, log);
  if (mapped.statusCode >= 500) return mapped;
  log.warn('duffel refused a cancellation', { codes: refusal.errors.map((e) => e.code).join(',') });
  return new NotCancellableError('The airline does not allow this booking to be cancelled now.');
}

/** Duffel's quote for cancelling `orderId` now: an order_cancellation, created and never confirmed here. */
export async function quoteCancellation(
  send: DuffelSend,
  orderId: string,
  currency: string,
  log: Logger,
): Promise<CancellationQuote | 'cancelled'> {
  try {
    const quote = (
      await send<OrderCancellation>({
        method: 'POST',
        path: '/air/order_cancellations',
        body: { order_id: orderId },
        // A quote commits to nothing: asking twice is harmless.
        repeatable: true,
      })
    ).data;
    return { id: quote.id, ...refundedOf(quote, currency), expiresAt: instantOrNull(quote.expires_at) };
  } catch (error) {
    if (error instanceof DuffelRefusal && error.has('already_cancelled')) return 'cancelled';
    if (error instanceof DuffelRefusal) throw cancellationRefused(error, log);
    if (error instanceof DuffelNoAnswer) throw supplierUnavailable(error);
    throw error;
  }
}

/** Confirms a quote once; an outcome Duffel did not give (or "already cancelled") is for the order to tell. */
export async function confirmCancellation(
  send: DuffelSend,
  quote: CancellationQuote,
  log: Logger,
): Promise<CancellationOutcome> {
  try {
    const confirmed = await send<OrderCancellation>({
      method: 'POST',
      path: `/air/order_cancellations/${encodeURIComponent(quote.id)}/actions/confirm`,
      repeatable: false,
    });
    return { kind: 'cancelled', ...refundedOf(confirmed.data, quote.refund?.currency) };
  } catch (error) {
    if (error instanceof DuffelNoAnswer)
      return error.sent ? { kind: 'unknown' } : { kind: 'refused', error: supplierUnavailable(error) };
    if (!(error instanceof DuffelRefusal)) throw error;
    if (error.has('already_cancelled') || error.has('already_confirmed')) return { kind: 'unknown' };
    return { kind: 'refused', error: cancellationRefused(error, log) };
  }
}

type Stated = Pick<OrderCancellation, 'refund_amount' | 'refund_currency' | 'refund_to' | 'airline_credits'>;

/**
 * What Duffel's cancellation gives back, as ours: the refund ({@link refundOf}), where it goes (a
 * `refund_to` missing, null or not one Duffel documents: null, never guessed) and the airline credits.
 */
function refundedOf(cancellation: Stated, zeroCurrency: string | undefined): Refunded {
  const to: unknown = cancellation.refund_to;
  return {
    refund: refundOf(cancellation, zeroCurrency),
    refundTo: REFUND_DESTINATIONS.includes(to as RefundTo) ? (to as RefundTo) : null,
    airlineCredits: creditsOf(cancellation.airline_credits),
  };
}

type WireCredit = Partial<OrderCancellationAirlineCredit> & { expires_at?: string | null };

/**
 * Duffel's airline credits (a list missing or null: none). A credit's `credit_code` may be null (Duffel's
 * airline credit reference: the airline has not issued it yet): its code is null; `expires_at`, which
 * the cancellation's credits do not carry yet, is read where present. A credit whose amount or currency
 * cannot be read is no money we can state: left out.
 */
function creditsOf(credits: readonly WireCredit[] | null | undefined): AirlineCredit[] {
  if (!Array.isArray(credits)) return [];
  return credits.flatMap((credit: WireCredit | null) => {
    const currency = credit?.credit_currency;
    const amount =
      typeof credit?.credit_amount === 'string' && typeof currency === 'string'
        ? minorUnits(credit.credit_amount, currency)
        : undefined;
    if (!credit || !currency || amount === undefined) return [];
    const code = typeof credit.credit_code === 'string' && credit.credit_code ? credit.credit_code : null;
    return [{ code, amount, currency, expiresAt: instantOrNull(credit.expires_at) }];
  });
}

/**
 * Duffel's refund as ours; null — never 0 — when Duffel does not state it: `refund_amount` null, an
 * amount without its currency, or one our money cannot carry. A stated zero without a currency is 0 in
 * `zeroCurrency` (the order's): nothing comes back in any currency.
 */
function refundOf(
  cancellation: Pick<OrderCancellation, 'refund_amount' | 'refund_currency'>,
  zeroCurrency: string | undefined,
): Refund | null {
  const { refund_amount: amount, refund_currency: stated } = cancellation;
  if (typeof amount !== 'string') return null;
  const currency = stated ?? (/^0+(\.0+)?$/.test(amount) ? zeroCurrency : undefined);
  const minor = currency ? minorUnits(amount, currency) : undefined;
  return currency && minor !== undefined ? { amount: minor, currency } : null;
}

/** Duffel's date-time (documented nullable), or null when absent or not one. */
const instantOrNull = (value: string | null | undefined) =>
  value && !Number.isNaN(Date.parse(value)) ? value : null;

/**
 * The order Duffel holds for `booking`, found by the booking id in its metadata: first among the orders
 * of its first passenger's family name (Duffel filters orders by passenger name), then — so that a name
 * Duffel spells differently cannot make a made order look absent — among the most recent orders of the
 * account. A few pages each at most; undefined only when neither holds it.
 */
export async function findOrder(
  send: DuffelSend,
  booking: SuppliedBooking,
  fail: Fail,
): Promise<SupplierOrder | undefined> {
  const name = booking.passengers[0]?.last_name ?? '';
  try {
    const filters: Record<string, string>[] = [{ 'passenger_name[]': name }, {}];
    for (const filter of filters) {
      let after: string | null | undefined;
      for (let page = 0; page < 5; page++) {
        const query = new URLSearchParams({ ...filter, limit: '50', ...(after && { after }) });
        const answer = await send<Order[]>({ method: 'GET', path: `/air/orders?${query}`, repeatable: true });
        const found = answer.data.find((order) => order.metadata?.booking_id === booking.booking_id);
        if (found) return supplierOrder(found);
        after = answer.meta?.after;
        if (!after) break;
      }
    }
    return undefined;
  } catch (error) {
    return fail(error, () => undefined);
  }
}
