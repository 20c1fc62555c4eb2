import type {} from '@duffel/api';
import type { Offer, Order, SeatMap } from '@duffel/api/types';
import type { Session } from '../../auth/session.ts';
import { isoSeconds } from '../../clock.ts';
import {
  type ApiError,
  ConditionsChangedError,
  PriceChangedError,
  SeatUnavailableError,
  SoldOutError,
} from '../../errors.ts';
import type { FlightView } from '../../flights/flight-view.ts';
import type { SearchInput } from '../../flights/search-request.ts';
import type { Logger } from '../../log.ts';
import { decimalAmount, minorUnits, toMajor } from '../../money.ts';
import {
  type OrderOutcome,
  type OrderRequest,
  offerFacts,
  type PaymentOutcome,
  type Refund,
  type RemoteOrdering,
  type RemoteOrders,
  type RemoteSupplier,
  type SupplierOffer,
} from '../port.ts';
import {
  confirmOrderChange,
  createOrderChange,
  readOrderChange,
  readOrderJourneys,
  searchOrderChanges,
} from './changes.ts';
import {
  DuffelNoAnswer,
  DuffelRefusal,
  type DuffelSend,
  type DuffelSettings,
  duffelClient,
  supplierUnavailable,
} from './client.ts';
import { type DuffelQuote, flightFromOffer, offerRequestBody, openDuffelOffer } from './mapping.ts';
import {
  cancelOrder,
  confirmCancellation,
  findOrder,
  quoteCancellation,
  readOrder,
  supplierOrder,
} from './orders.ts';
import { matchPassengers } from './passengers.ts';
import { rankFlights } from './ranking.ts';
import { orderFieldPath, refusalError, searchFieldPath } from './refusals.ts';
import { duffelServices } from './services.ts';

interface DuffelDeps {
  readonly keys: { readonly offer: Uint8Array };
  readonly clock: { now(): number };
  readonly log: Logger;
  readonly duffel: Omit<DuffelSettings, 'log' | 'now'>;
}

type Fail = (error: unknown, pathOf: (field: string | undefined) => string | undefined) => never;
type ReadOffer = (id: string) => Promise<Offer>;

/**
 * Duffel's Flights API v2 as a FlightSupplier (docs/API.md §4.5): a remote supplier. Search is one offer
 * request; booking re-reads the offer, then makes one instant order paid from the balance for exactly
 * the quoted amount, with our booking id in its metadata, which is how the sweep finds it again.
 */
export function duffelSupplier(deps: DuffelDeps): RemoteSupplier {
  const send = duffelClient({ ...deps.duffel, log: deps.log, now: () => deps.clock.now() });
  const fail: Fail = (error, pathOf) => {
    if (error instanceof DuffelRefusal) throw refusalError(error, pathOf, deps.log);
    if (error instanceof DuffelNoAnswer) throw supplierUnavailable(error);
    throw error;
  };
  const readOffer: ReadOffer = async (id) => {
    try {
      return (
        await send<Offer>({ method: 'GET', path: `/air/offers/${encodeURIComponent(id)}`, repeatable: true })
      ).data;
    } catch (error) {
      return fail(error, () => undefined);
    }
  };

  return {
    name: 'duffel',
    search: (body, session) => searchFlights(deps, send, fail, body, session),
    openOffer(flightId: string): SupplierOffer<RemoteOrdering> | undefined {
      const quote = openDuffelOffer(deps.keys.offer, flightId);
      return quote && duffelOffer(deps, send, quote, readOffer);
    },
    orders: remoteOrders(deps.log, send, fail),
  };
}

/** Search: one offer request, its offers read as Flights (an unreadable one left out) and ranked. */
async function searchFlights(
  deps: DuffelDeps,
  send: DuffelSend,
  fail: Fail,
  body: SearchInput,
  session: Session,
): Promise<FlightView[]> {
  let offers: Offer[];
  try {
    const answer = await send<{ offers: Offer[] }>({
      method: 'POST',
      path: '/air/offer_requests?return_offers=true',
      body: offerRequestBody(body),
      // An offer request only reads: a second one is harmless.
      repeatable: true,
    });
    offers = answer.data.offers ?? [];
  } catch (error) {
    return fail(error, (field) => searchFieldPath(field, body.slices !== undefined));
  }
  const request = {
    agencyId: session.agencyId,
    travelClass: body.travel_class,
    passengers: { adults: body.adults, children: body.children, infants: body.infants },
    now: deps.clock.now(),
    multiCity: body.slices !== undefined,
  };
  const flights = offers
    .map((offer) => readable(deps.log, () => flightFromOffer(offer, request, deps.keys.offer))?.flight)
    .filter((f): f is FlightView => f !== undefined)
    .filter((f) => f.slices.every((slice) => slice.stops <= body.max_connections));
  return rankFlights(flights, body.sort, body.limit);
}

/** The orders Duffel holds: cancelled, quoted, found, read and paid there. */
function remoteOrders(log: Logger, send: DuffelSend, fail: Fail): RemoteOrders {
  return {
    kind: 'remote',
    // The order holds the seats: cancelled at Duffel, or lapsing there by itself.
    seatsBack: () => [],
    cancel: (orderId, currency) => cancelOrder(send, { id: orderId, currency }, fail, log),
    quoteCancellation: (orderId, currency) => quoteCancellation(send, orderId, currency, log),
    confirmCancellation: (quote) => confirmCancellation(send, quote, log),
    findOrder: (booking) => findOrder(send, booking, fail),
    readOrder: (orderId) => readOrder(send, orderId, fail),
    pay: (orderId, amount) => payOrder(log, send, orderId, amount),
    searchChanges: (orderId, asked, cabin) => searchOrderChanges(send, log, { orderId, asked, cabin }),
    createChange: (offerId) => createOrderChange(send, log, offerId),
    confirmChange: (change) => confirmOrderChange(send, log, change),
    readChange: (changeId) => readOrderChange(send, log, changeId),
    readJourneys: (orderId) => readOrderJourneys(send, log, orderId),
  };
}

/** Pays a held order from the balance; an outcome we cannot know is `unknown`, for the order to say. */
async function payOrder(
  log: Logger,
  send: DuffelSend,
  orderId: string,
  amount: Refund,
): Promise<PaymentOutcome> {
  try {
    await send({
      method: 'POST',
      path: '/air/payments',
      body: { order_id: orderId, payment: { type: 'balance', ...moneyOf(amount) } },
      repeatable: false,
    });
    return { kind: 'paid' };
  } catch (error) {
    if (error instanceof DuffelNoAnswer) {
      return error.sent ? { kind: 'unknown' } : { kind: 'refused', error: supplierUnavailable(error) };
    }
    if (!(error instanceof DuffelRefusal)) throw error;
    // Paid already (by a request we lost track of) or re-priced: the order itself says which.
    if (error.has('already_paid') || error.has('price_changed')) return { kind: 'unknown' };
    return { kind: 'refused', error: refusalError(error, () => undefined, log) };
  }
}

/** An offer in a shape Duffel does not document is one our Flight cannot carry (logged), never a 500. */
function readable(log: Logger, map: () => ReturnType<typeof flightFromOffer>) {
  try {
    return map();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    log.warn('duffel offer not readable', { reason: error.name });
    return undefined;
  }
}

const moneyOf = (amount: Refund) => ({
  amount: decimalAmount(amount.amount, amount.currency),
  currency: amount.currency,
});

type Quote = DuffelQuote & { identity: string };

/** One sealed offer: re-read at Duffel when booked (requote), then ordered from what was re-read. */
function duffelOffer(
  deps: DuffelDeps,
  send: DuffelSend,
  quote: Quote,
  readOffer: ReadOffer,
): SupplierOffer<RemoteOrdering> {
  let current: Offer | undefined;
  const order = async (request: OrderRequest, type: OrderType) =>
    placeOrder(
      deps,
      send,
      quote,
      current ?? (await readOffer(quote.duffelOfferId)),
      readOffer,
      request,
      type,
    );
  return {
    ...offerFacts(quote),
    firstDepartureDate: quote.firstDepartureDate,
    async requote(flightId) {
      const offer = await readOffer(quote.duffelOfferId);
      current = offer;
      return requoted(deps, quote, offer, flightId);
    },
    ordering: {
      kind: 'remote',
      order: (request) => order(request, 'instant'),
      orderOnHold: (request) => order(request, 'hold'),
    },
    services: () => offerServices(send, quote),
  };
}

/**
 * The order's `services`: the bags by their Duffel ids, and each seat as the seat service Duffel sells
 * that passenger on that segment (the seat maps read again); a seat no longer sold is SEAT_UNAVAILABLE.
 */
async function orderedServices(
  send: DuffelSend,
  quote: Quote,
  offer: Offer,
  request: OrderRequest,
  matched: { passengers: { id: string }[]; ourIndex: number[] },
): Promise<{ services: { id: string; quantity: number }[] } | { error: ApiError }> {
  const services = [...(request.services ?? [])];
  const seats = request.seats ?? [];
  if (seats.length === 0) return { services };
  const id = encodeURIComponent(quote.duffelOfferId);
  const maps = (
    await send<SeatMap[]>({ method: 'GET', path: `/air/seat_maps?offer_id=${id}`, repeatable: true })
  ).data;
  const segments = offer.slices.flatMap((slice) => slice.segments.map((s) => s.id));
  const gone: { path: string; message: string }[] = [];
  seats.forEach((seat, i) => {
    const passengerId = matched.passengers[matched.ourIndex.indexOf(seat.passengerIndex)]?.id;
    const map = maps.find((m) => m.segment_id === segments[seat.segmentIndex]);
    const element = map?.cabins
      .flatMap((c) => c.rows.flatMap((r) => r.sections.flatMap((s) => s.elements)))
      .find((e) => e.type === 'seat' && e.designator === seat.designator);
    const service =
      element?.type === 'seat'
        ? element.available_services.find((s) => s.passenger_id === passengerId)
        : undefined;
    if (service) services.push({ id: service.id, quantity: 1 });
    else
      gone.push({ path: `seats.${i}.designator`, message: `Seat ${seat.designator} is no longer available` });
  });
  return gone.length > 0 ? { error: new SeatUnavailableError(gone) } : { services };
}

/** The offer's bags (return_available_services) and its seat maps, read together (services.ts). */
async function offerServices(send: DuffelSend, quote: Quote) {
  const id = encodeURIComponent(quote.duffelOfferId);
  const [offer, maps] = await Promise.all([
    send<Offer>({
      method: 'GET',
      path: `/air/offers/${id}?return_available_services=true`,
      repeatable: true,
    }),
    send<SeatMap[]>({ method: 'GET', path: `/air/seat_maps?offer_id=${id}`, repeatable: true }),
  ]);
  return duffelServices(offer.data, maps.data, quote.travelClass);
}

/** The offer as Duffel holds it now, as our Flight, with the price change against the quote if any. */
function requoted(deps: DuffelDeps, quote: Quote, offer: Offer, flightId: string) {
  const request = { ...quote, now: deps.clock.now() };
  const asQuoted = readable(deps.log, () => flightFromOffer(offer, request, deps.keys.offer, quote.total));
  if (!asQuoted) return undefined;
  const flight = {
    ...asQuoted.flight,
    id: flightId,
    currency: quote.currency,
    expires_at: isoSeconds(quote.expiresAt * 1000),
  };
  const total = minorUnits(offer.total_amount, offer.total_currency);
  const moved = total !== quote.total || offer.total_currency !== quote.currency;
  // The price first: a fresh offer at a new price carries today's conditions too (docs/decisions.md).
  const change = moved
    ? changedPrice(deps, quote, offer)
    : quote.conditions !== undefined && quote.conditions !== asQuoted.quote.conditions
      ? changedConditions(deps, quote, offer)
      : undefined;
  return {
    flight,
    departsAt: asQuoted.departsAt,
    // Holdable only where Duffel says no instant payment is required.
    holdable: offer.payment_requirements?.requires_instant_payment === false,
    ...(change && { change }),
  };
}

/** CONDITIONS_CHANGED with a fresh Flight under the conditions Duffel states now; SOLD_OUT if it no longer fits. */
function changedConditions(deps: DuffelDeps, quote: DuffelQuote, offer: Offer): ApiError {
  const fresh = flightFromOffer(offer, { ...quote, now: deps.clock.now() }, deps.keys.offer);
  return fresh ? new ConditionsChangedError({ flight: fresh.flight }) : new SoldOutError();
}

type OrderType = 'instant' | 'hold';

/** One order for the offer (`offer`: as re-read), paid from the balance when instant; never repeated. */
async function placeOrder(
  deps: DuffelDeps,
  send: DuffelSend,
  quote: Quote,
  offer: Offer,
  readOffer: ReadOffer,
  request: OrderRequest,
  type: OrderType,
): Promise<OrderOutcome> {
  const matched = matchPassengers(offer.passengers, request);
  if ('error' in matched) return { kind: 'refused', error: matched.error };
  // Read before any order is made: whatever goes wrong here, no order exists.
  const extras = await orderedServices(send, quote, offer, request, matched).catch((error: unknown) => {
    if (error instanceof DuffelNoAnswer) return { error: supplierUnavailable(error) };
    if (error instanceof DuffelRefusal) return { error: refusalError(error, () => undefined, deps.log) };
    throw error;
  });
  if ('error' in extras) return { kind: 'refused', error: extras.error };
  try {
    const answer = await send<Order>({
      method: 'POST',
      path: '/air/orders',
      body: {
        type,
        selected_offers: [quote.duffelOfferId],
        passengers: matched.passengers,
        ...(extras.services.length > 0 && { services: extras.services }),
        ...(type === 'instant' && {
          payments: [
            {
              type: 'balance',
              ...moneyOf({ amount: request.total ?? quote.total, currency: quote.currency }),
            },
          ],
        }),
        metadata: { booking_id: request.bookingId },
      },
      repeatable: false,
      ordering: true,
    });
    return { kind: 'ordered', order: supplierOrder(answer.data) };
  } catch (error) {
    if (error instanceof DuffelNoAnswer) {
      return error.sent ? { kind: 'unknown' } : { kind: 'refused', error: supplierUnavailable(error) };
    }
    if (!(error instanceof DuffelRefusal)) throw error;
    if (error.has('price_changed'))
      return { kind: 'refused', error: await priceChange(deps, quote, readOffer) };
    return {
      kind: 'refused',
      error: refusalError(error, (f) => orderFieldPath(f, matched.ourIndex), deps.log),
    };
  }
}

/** PRICE_CHANGED with a fresh Flight at Duffel's price now; SOLD_OUT if the offer no longer fits ours. */
function changedPrice(deps: DuffelDeps, quote: DuffelQuote, offer: Offer): ApiError {
  const fresh = flightFromOffer(offer, { ...quote, now: deps.clock.now() }, deps.keys.offer);
  if (!fresh) return new SoldOutError();
  return new PriceChangedError({
    previous_total_price: toMajor(quote.total, quote.currency),
    total_price: fresh.flight.total_price,
    currency: fresh.flight.currency,
    flight: fresh.flight,
  });
}

async function priceChange(deps: DuffelDeps, quote: DuffelQuote, readOffer: ReadOffer) {
  try {
    return changedPrice(deps, quote, await readOffer(quote.duffelOfferId));
  } catch {
    return new SoldOutError();
  }
}
