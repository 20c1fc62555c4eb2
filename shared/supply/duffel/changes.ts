import type {} from '@duffel/api';
import type {
  OfferSlice,
  Order,
  OrderChange,
  OrderChangeOffers,
  OrderChangeRequestResponse,
} from '@duffel/api/types';
import { type ApiError, NotChangeableError, OfferExpiredError } from '../../errors.ts';
import type { TravelClass } from '../../flights/cabins.ts';
import type { Logger } from '../../log.ts';
import { decimalAmount, minorUnits } from '../../money.ts';
import {
  type ChangeAsked,
  type ChangeOutcome,
  REFUND_DESTINATIONS,
  type RefundTo,
  type SupplierChange,
  type SupplierChangeOffer,
} from '../port.ts';
import { DuffelNoAnswer, DuffelRefusal, type DuffelSend, supplierUnavailable } from './client.ts';
import { CABINS, direction } from './mapping.ts';
import { refusalError } from './refusals.ts';

/**
 * Duffel's order changes (docs/API.md §4.9, docs/decisions.md "Duffel changes"): an order change request
 * removes the booked slices of the journeys to change and adds the new ones; Duffel answers its
 * `order_change_offers`, each read here field by field, every nullable one a branch:
 * - `change_total_amount` (or its currency) null: the offer states no cost, which a ChangeOffer cannot
 *   carry: left out (as an offer our Flight cannot carry is left out of search);
 * - `penalty_amount` null: no penalty stated, `penalty` null (never 0);
 * - `new_total_amount` null, or in another currency than the order's: `fare_difference` null; otherwise
 *   the new total less the order's total now;
 * - `refund_to`: one this service names (port.ts REFUND_DESTINATIONS), otherwise null;
 * - an added slice our Flight cannot carry (more than one stop, no flight number) leaves the offer out.
 */

/** One of Duffel's change offers as ours; undefined when it states no cost or a slice cannot be read. */
function changeOfferFrom(
  offer: OrderChangeOffers,
  order: { readonly total: number; readonly currency: string },
  replaced: readonly number[],
): SupplierChangeOffer | undefined {
  const currency = offer.change_total_currency;
  const changeTotal =
    offer.change_total_amount === null || !currency
      ? undefined
      : signedMinor(offer.change_total_amount, currency);
  if (changeTotal === undefined || !currency) return undefined;
  const journeys = offer.slices.add.map((slice) => direction(slice as unknown as OfferSlice, []));
  if (journeys.length !== replaced.length || journeys.some((j) => j === undefined)) return undefined;
  const penalty =
    offer.penalty_amount === null || offer.penalty_currency !== currency
      ? null
      : (signedMinor(offer.penalty_amount, currency) ?? null);
  const newTotal =
    offer.new_total_amount === null || offer.new_total_currency !== order.currency
      ? undefined
      : signedMinor(offer.new_total_amount, order.currency);
  const refundTo = (REFUND_DESTINATIONS as readonly string[]).includes(offer.refund_to)
    ? (offer.refund_to as RefundTo)
    : null;
  return {
    id: offer.id,
    journeys: replaced.map((index, i) => ({
      index,
      journey: journeys[i] as NonNullable<(typeof journeys)[0]>,
    })),
    currency,
    changeTotal,
    penalty,
    fareDifference: newTotal === undefined || currency !== order.currency ? null : newTotal - order.total,
    refundTo,
    expiresAt: offer.expires_at,
  };
}

/** A decimal string, maybe negative, in minor units; undefined when it is not an amount of `currency`. */
function signedMinor(amount: string, currency: string): number | undefined {
  const negative = amount.startsWith('-');
  const minor = minorUnits(negative ? amount.slice(1) : amount, currency);
  return minor === undefined ? undefined : negative ? -minor : minor;
}

/** Duffel refusing a change (the airline does not allow it, the order cannot change): 409 NOT_CHANGEABLE. */
function changeRefused(refusal: DuffelRefusal, log: Logger) {
  const mapped = refusalError(refusal, () => undefined, log);
  if (mapped.statusCode >= 500) return mapped;
  log.warn('duffel refused a change', { codes: refusal.errors.map((e) => e.code).join(',') });
  return new NotChangeableError('The airline does not allow this change of the booking.');
}

/** What a Duffel call's failure answers: a refusal is NOT_CHANGEABLE, no answer a 503. */
function changeFailure(error: unknown, log: Logger): Error {
  if (error instanceof DuffelRefusal) return changeRefused(error, log);
  if (error instanceof DuffelNoAnswer) return supplierUnavailable(error);
  return error as Error;
}

/**
 * The offers of changing `asked` journeys of order `orderId`: the order read (its slices' ids and total),
 * then one order change request (it changes nothing: asking twice is harmless), its offers read.
 */
export async function searchOrderChanges(
  send: DuffelSend,
  log: Logger,
  request: { orderId: string; asked: readonly ChangeAsked[]; cabin: TravelClass },
): Promise<SupplierChangeOffer[]> {
  try {
    const path = `/air/orders/${encodeURIComponent(request.orderId)}`;
    const order = (await send<Order>({ method: 'GET', path, repeatable: true })).data;
    const asked = [...request.asked].sort((a, b) => a.index - b.index);
    const remove = asked.map((a) => ({ slice_id: order.slices[a.index]?.id ?? '' }));
    if (remove.some((r) => !r.slice_id))
      throw new NotChangeableError('The supplier’s order no longer has this journey.');
    const add = asked.map((a) => ({
      origin: a.origin,
      destination: a.destination,
      departure_date: a.date,
      cabin_class: CABINS[request.cabin],
    }));
    const answer = await send<OrderChangeRequestResponse>({
      method: 'POST',
      path: '/air/order_change_requests',
      body: { order_id: order.id, slices: { remove, add } },
      repeatable: true,
    });
    const total = {
      total: minorUnits(order.total_amount, order.total_currency) ?? 0,
      currency: order.total_currency,
    };
    const indices = asked.map((a) => a.index);
    return (answer.data.order_change_offers ?? [])
      .map((offer) => changeOfferFrom(offer, total, indices))
      .filter((o): o is SupplierChangeOffer => o !== undefined);
  } catch (error) {
    throw changeFailure(error, log);
  }
}

/** Duffel's order change as ours. */
const supplierChange = (change: OrderChange): SupplierChange => ({
  id: change.id,
  confirmed: Boolean(change.confirmed_at),
  changeTotal: signedMinor(change.change_total_amount ?? '', change.change_total_currency) ?? Number.NaN,
  currency: change.change_total_currency,
});

/** A pending order change from Duffel's change offer (nothing changes until it is confirmed: repeatable). */
export async function createOrderChange(
  send: DuffelSend,
  log: Logger,
  offerId: string,
): Promise<SupplierChange> {
  try {
    const answer = await send<OrderChange>({
      method: 'POST',
      path: '/air/order_changes',
      body: { selected_order_change_offer: offerId },
      repeatable: true,
    });
    return supplierChange(answer.data);
  } catch (error) {
    if (error instanceof DuffelRefusal && error.has('offer_no_longer_available'))
      throw new OfferExpiredError();
    throw changeFailure(error, log);
  }
}

/** The order change as Duffel holds it now (a read). */
export async function readOrderChange(
  send: DuffelSend,
  log: Logger,
  changeId: string,
): Promise<SupplierChange> {
  try {
    const path = `/air/order_changes/${encodeURIComponent(changeId)}`;
    return supplierChange((await send<OrderChange>({ method: 'GET', path, repeatable: true })).data);
  } catch (error) {
    throw changeFailure(error, log);
  }
}

/**
 * Confirms a pending change once, paying exactly its total from the balance when it costs something.
 * An answer lost after sending, or "already confirmed", is `unknown`: the change itself says.
 */
export async function confirmOrderChange(
  send: DuffelSend,
  log: Logger,
  change: SupplierChange,
): Promise<ChangeOutcome> {
  const pays = change.changeTotal > 0;
  try {
    await send<OrderChange>({
      method: 'POST',
      path: `/air/order_changes/${encodeURIComponent(change.id)}/actions/confirm`,
      body: pays ? { payment: { type: 'balance', ...moneyOf(change) } } : {},
      repeatable: false,
    });
    return { kind: 'confirmed' };
  } catch (error) {
    if (error instanceof DuffelRefusal && error.has('already_confirmed')) return { kind: 'unknown' };
    if (error instanceof DuffelRefusal && error.has('order_change_expired'))
      return { kind: 'refused', error: new OfferExpiredError() };
    if (error instanceof DuffelNoAnswer && error.sent) return { kind: 'unknown' };
    return { kind: 'refused', error: changeFailure(error, log) as ApiError };
  }
}

const moneyOf = (change: SupplierChange) => ({
  amount: decimalAmount(change.changeTotal, change.currency),
  currency: change.currency,
});

/** The order's journeys and total now, read after a change. */
export async function readOrderJourneys(send: DuffelSend, log: Logger, orderId: string) {
  try {
    const path = `/air/orders/${encodeURIComponent(orderId)}`;
    const order = (await send<Order>({ method: 'GET', path, repeatable: true })).data;
    const journeys = order.slices.map((slice) => direction(slice as unknown as OfferSlice, []));
    if (journeys.some((j) => j === undefined)) throw new DuffelNoAnswer('unreadable order', true);
    return {
      journeys: journeys as NonNullable<(typeof journeys)[0]>[],
      total: minorUnits(order.total_amount, order.total_currency) ?? 0,
      currency: order.total_currency,
    };
  } catch (error) {
    throw changeFailure(error, log);
  }
}
