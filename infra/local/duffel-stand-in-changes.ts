import type {} from '@duffel/api';
import type {
  CreateOfferRequest,
  CreateOrderChangeRequest,
  Offer,
  Order,
  OrderChange,
  OrderChangeOffer,
  OrderChangeOfferSlice,
} from '@duffel/api/types';
import { decimalAmount, minorUnits } from '#shared/money.ts';
import { duffelId, offersFor, orderFrom } from './duffel-stand-in-data.ts';

/**
 * The stand-in's order changes (Duffel's order change requests → order change offers → order changes,
 * confirmed with a payment when they cost something), as Duffel documents them and `@duffel/api` types
 * them, every nullable field a branch a test can reach: `penalty_amount` is null where the order's slice
 * states no change condition, `change_total_amount` is negative where money goes back (`refund_to`).
 *
 * Prices, the stand-in's own rule: a removed slice is worth its share of the order's total (total ÷
 * slices); an added slice costs what a one-slice offer request for it quotes; the penalty is the removed
 * slices' `conditions.change_before_departure.penalty_amount` summed (null when none states one).
 */

/** What the stand-in keeps of changes: requests with their offers, and the changes made of them. */
export interface ChangeStore {
  readonly offers: Map<string, { offer: OrderChangeOffer; orderId: string; added: Order['slices'] }>;
  readonly requests: Map<string, unknown>;
  readonly changes: Map<string, OrderChange & { added: Order['slices']; removed: string[] }>;
}

export const emptyChangeStore = (): ChangeStore => ({
  offers: new Map(),
  requests: new Map(),
  changes: new Map(),
});

/** What the change endpoints are given: the clock, the orders, the store, and Duffel's way of refusing. */
export interface ChangeContext {
  readonly now: () => number;
  readonly currency: string;
  readonly offerTtlSeconds: number;
  readonly orders: Map<string, Order>;
  readonly changes: ChangeStore;
  readonly refuse: (status: number, type: string, code: string, message: string, field?: string) => Error;
}

const passengersOf = (order: Order): CreateOfferRequest['passengers'] =>
  order.passengers.map((p) =>
    p.type === 'child' ? { age: 8 } : p.type === 'infant_without_seat' ? { age: 1 } : { type: 'adult' },
  ) as CreateOfferRequest['passengers'];

/** The order's slices to remove, checked: the order's, changeable, not departed. */
function removedSlices(ctx: ChangeContext, order: Order, ids: string[]) {
  const slices = ids.map((id) => order.slices.find((s) => s.id === id));
  if (ids.length === 0 || slices.some((s) => !s))
    throw ctx.refuse(
      422,
      'validation_error',
      'invalid_slice',
      'Every slice to remove must be the order’s.',
      'slices.remove',
    );
  const found = slices as Order['slices'];
  for (const slice of found) {
    const change = (slice.conditions as { change_before_departure?: { allowed?: boolean } | null })
      .change_before_departure;
    const departed = Date.parse(slice.segments[0]?.departing_at ?? '') <= ctx.now();
    if (change?.allowed === false || departed)
      throw ctx.refuse(
        422,
        'airline_error',
        'order_change_not_possible',
        'The airline does not allow this change.',
      );
  }
  return found;
}

/** The penalty of changing `slices`, in minor units; null when none of them states one. */
function penaltyOf(slices: Order['slices'], currency: string): number | null {
  const stated = slices
    .map(
      (s) =>
        (s.conditions as { change_before_departure?: { penalty_amount?: string | null } | null })
          .change_before_departure?.penalty_amount,
    )
    .filter((amount): amount is string => typeof amount === 'string');
  return stated.length === 0
    ? null
    : stated.reduce((n, amount) => n + (minorUnits(amount, currency) ?? 0), 0);
}

/** `POST /air/order_change_requests`: the offers of moving the slices removed to the slices added. */
export function createChangeRequest(
  ctx: ChangeContext,
  request: CreateOrderChangeRequest,
): [number, unknown] {
  const order = ctx.orders.get(request.order_id);
  if (!order) throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order does not exist.');
  if (order.cancelled_at)
    throw ctx.refuse(422, 'invalid_state_error', 'already_cancelled', 'The order is cancelled.');
  const removed = removedSlices(
    ctx,
    order,
    (request.slices?.remove ?? []).map((r) => r.slice_id),
  );
  const currency = order.total_currency;
  const total = minorUnits(order.total_amount, currency) ?? 0;
  const kept = total - Math.round((total * removed.length) / order.slices.length);
  const penalty = penaltyOf(removed, currency);
  const id = duffelId('ocr');
  const created = new Date(ctx.now()).toISOString();
  const quoted = offersFor(
    {
      slices: request.slices?.add ?? [],
      passengers: passengersOf(order),
      cabin_class: request.slices?.add?.[0]?.cabin_class ?? 'economy',
    } as CreateOfferRequest,
    { currency, now: ctx.now(), offerTtlSeconds: ctx.offerTtlSeconds },
  ).offers.slice(0, 10);
  const offers = quoted.map((offer) => changeOffer(ctx, { order, removed, offer, id, kept, penalty }));
  const answer = {
    id,
    live_mode: false,
    order_id: order.id,
    slices: { remove: removed.map((s) => ({ slice_id: s.id })), add: request.slices?.add ?? [] },
    order_change_offers: offers,
    created_at: created,
    updated_at: created,
  };
  ctx.changes.requests.set(id, answer);
  return [201, answer];
}

/** One change offer: the added slices of `offer`, priced by the stand-in's rule. */
function changeOffer(
  ctx: ChangeContext,
  from: {
    order: Order;
    removed: Order['slices'];
    offer: Offer;
    id: string;
    kept: number;
    penalty: number | null;
  },
): OrderChangeOffer {
  const { order, offer } = from;
  const currency = order.total_currency;
  const added = orderFrom(offer, order.passengers, { metadata: {}, held: false, now: ctx.now() }).slices;
  const newTotal = from.kept + (minorUnits(offer.total_amount, currency) ?? 0);
  const changeTotal = newTotal - (minorUnits(order.total_amount, currency) ?? 0) + (from.penalty ?? 0);
  const created = new Date(ctx.now()).toISOString();
  const made: OrderChangeOffer = {
    id: duffelId('oco'),
    order_change_id: from.id,
    slices: {
      add: added as unknown as OrderChangeOfferSlice[],
      remove: from.removed as unknown as OrderChangeOfferSlice[],
    },
    change_total_amount: decimalAmount(changeTotal, currency),
    change_total_currency: currency,
    new_total_amount: decimalAmount(newTotal, currency),
    new_total_currency: currency,
    // Duffel's documented null: no penalty stated by the airline.
    penalty_amount:
      from.penalty === null ? (null as unknown as string) : decimalAmount(from.penalty, currency),
    penalty_currency: from.penalty === null ? (null as unknown as string) : currency,
    refund_to: 'balance',
    expires_at: new Date(ctx.now() + ctx.offerTtlSeconds * 1000).toISOString(),
    created_at: created,
    updated_at: created,
  };
  ctx.changes.offers.set(made.id, { offer: made, orderId: order.id, added });
  return made;
}

/** `GET /air/order_change_requests/{id}`. */
export function getChangeRequest(ctx: ChangeContext, id: string): [number, unknown] {
  const request = ctx.changes.requests.get(id);
  if (!request)
    throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order change request does not exist.');
  return [200, request];
}

/** `POST /air/order_changes`: a pending change of an offer that has not expired. */
export function createOrderChange(
  ctx: ChangeContext,
  body: { selected_order_change_offer?: string },
): [number, unknown] {
  const held = ctx.changes.offers.get(body.selected_order_change_offer ?? '');
  if (!held)
    throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order change offer does not exist.');
  if (Date.parse(held.offer.expires_at) <= ctx.now())
    throw ctx.refuse(
      422,
      'airline_error',
      'offer_no_longer_available',
      'The order change offer has expired.',
    );
  const { offer } = held;
  const change = {
    id: duffelId('oce'),
    live_mode: false,
    order_id: held.orderId,
    confirmed_at: null,
    created_at: new Date(ctx.now()).toISOString(),
    expires_at: offer.expires_at,
    change_total_amount: offer.change_total_amount ?? '0',
    change_total_currency: offer.change_total_currency ?? offer.new_total_currency,
    new_total_amount: offer.new_total_amount ?? '0',
    new_total_currency: offer.new_total_currency,
    penalty_total_amount: offer.penalty_amount,
    penalty_total_currency: offer.penalty_currency,
    refund_to: 'original_form_of_payment' as const,
    slices: offer.slices,
    added: held.added,
    removed: offer.slices.remove.map((s) => s.id),
  };
  ctx.changes.changes.set(change.id, change);
  return [201, visible(change)];
}

/** A change as Duffel answers it: what the stand-in keeps beside it left out. */
const visible = ({ added: _, removed: __, ...change }: OrderChange & { added: unknown; removed: unknown }) =>
  change;

/** `GET /air/order_changes/{id}`: how a lost confirm is found out (never by confirming again). */
export function getOrderChange(ctx: ChangeContext, id: string): [number, unknown] {
  const change = ctx.changes.changes.get(id);
  if (!change)
    throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order change does not exist.');
  return [200, visible(change)];
}

/**
 * `POST /air/order_changes/{id}/actions/confirm`: once, before it expires, paid from the balance at
 * exactly its total when it costs something; the order's slices and total become the change's.
 */
export function confirmOrderChange(
  ctx: ChangeContext,
  id: string,
  body: { payment?: { type?: string; amount?: string; currency?: string } } | undefined,
): [number, unknown] {
  const change = ctx.changes.changes.get(id);
  if (!change)
    throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order change does not exist.');
  if (change.confirmed_at)
    throw ctx.refuse(422, 'invalid_state_error', 'already_confirmed', 'Already confirmed.');
  if (Date.parse(change.expires_at) <= ctx.now())
    throw ctx.refuse(422, 'invalid_state_error', 'order_change_expired', 'The order change expired.');
  const costs =
    (minorUnits(change.change_total_amount.replace('-', ''), change.change_total_currency) ?? 0) > 0 &&
    !change.change_total_amount.startsWith('-');
  const { payment } = body ?? {};
  if (
    costs &&
    (payment?.type !== 'balance' ||
      payment.amount !== change.change_total_amount ||
      payment.currency !== change.change_total_currency)
  )
    throw ctx.refuse(
      422,
      'airline_error',
      'price_changed',
      'Pay exactly the change total from the balance.',
      'payment.amount',
    );
  const order = ctx.orders.get(change.order_id);
  if (!order) throw ctx.refuse(404, 'invalid_request_error', 'not_found', 'The order does not exist.');
  const slices = [...order.slices.filter((s) => !change.removed.includes(s.id)), ...change.added].sort(
    (a, b) => (a.segments[0]?.departing_at ?? '').localeCompare(b.segments[0]?.departing_at ?? ''),
  );
  ctx.orders.set(order.id, { ...order, slices, total_amount: change.new_total_amount });
  const confirmed = { ...change, confirmed_at: new Date(ctx.now()).toISOString() };
  ctx.changes.changes.set(id, confirmed);
  return [200, visible(confirmed)];
}
