/**
 * A local stand-in for Duffel's Flights API v2: every endpoint the duffel adapter uses, in Duffel's wire
 * format — `{data}` envelopes, `{errors: [{type, code, title, message, source}], meta: {request_id}}`
 * errors, string amounts, local times with each airport's zone, `ratelimit-*` headers and a real rate
 * limit — with switches for faults (429, 5xx, a timeout before or after acting, a slow answer, an
 * airline refusal).
 *
 * `npm run duffel-stand-in [-- --port 4010 --currency GBP]` runs it for `npm start` users:
 * `SUPPLIER=duffel DUFFEL_ACCESS_TOKEN=duffel_test_local DUFFEL_API_URL=http://127.0.0.1:4010 npm start`.
 * Faults over HTTP: `curl -X POST $URL/_stand-in/faults -d '{"endpoint":"orders.create","fault":{"kind":"status","status":500}}'`.
 * Tests start it in-process with {@link startDuffelStandIn}.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type {} from '@duffel/api';
import type {
  ApiResponseError,
  CreateOfferRequest,
  CreateOrder,
  CreateOrderCancellation,
  CreatePayment,
  Offer,
  Order,
  OrderCancellation,
  OrderPassenger,
} from '@duffel/api/types';
import { decimalAmount, minorUnits } from '#shared/money.ts';
import {
  type ChangeContext,
  type ChangeStore,
  confirmOrderChange,
  createChangeRequest,
  createOrderChange,
  emptyChangeStore,
  getChangeRequest,
  getOrderChange,
} from './duffel-stand-in-changes.ts';
import {
  airlineCreditsFor,
  type CancellationTerms,
  cancellationFor,
  duffelId,
  offersFor,
  orderFrom,
  taxOf,
} from './duffel-stand-in-data.ts';

/** An offer's amounts at a new total: its taxes the same share of it, its base the rest. */
function repriced(totalAmount: string, currency: string) {
  const total = minorUnits(totalAmount, currency) ?? 0;
  return {
    total_amount: totalAmount,
    base_amount: decimalAmount(total - taxOf(total), currency),
    tax_amount: decimalAmount(taxOf(total), currency),
  };
}

import {
  orderedServices,
  ServiceRefusal,
  standInBags,
  standInSeatMaps,
  withServices,
} from './duffel-stand-in-services.ts';

type Endpoint =
  | 'offer_requests.create'
  | 'offers.get'
  | 'orders.create'
  | 'orders.get'
  | 'orders.list'
  | 'order_cancellations.create'
  | 'order_cancellations.confirm'
  | 'payments.create'
  | 'order_change_requests.create'
  | 'order_change_requests.get'
  | 'order_changes.create'
  | 'order_changes.get'
  | 'order_changes.confirm'
  | 'seat_maps.list';

/** What can go wrong at Duffel, injected for the next call(s) of an endpoint. */
type Fault =
  /** Answer this status with Duffel's error body, acting on nothing. */
  | { kind: 'status'; status: 429 | 500 | 502 | 503 | 504 }
  /** Never answer, having done nothing. */
  | { kind: 'timeout-before' }
  /** Do the work (an order is made), then never answer. */
  | { kind: 'timeout-after' }
  /** Do the work, then answer 500 as a gateway might. */
  | { kind: 'error-after'; status: 500 | 502 | 504 }
  /** Do the work, answering only after `ms` (a slow airline). */
  | { kind: 'slow'; ms: number }
  /** Refuse with this Duffel error (422 unless said). */
  | { kind: 'refuse'; status?: number; error: Partial<DuffelError> };

interface DuffelError extends ApiResponseError {
  source?: { field?: string; pointer?: string };
}

export interface StandInOptions {
  port?: number;
  /** The currency every fare is in (GBP by default). */
  currency?: string;
  /** How long offers last (Duffel: about 30 minutes). */
  offerTtlSeconds?: number;
  /** Requests per 60-second window before 429. */
  rateLimit?: number;
  now?: () => number;
}

export interface DuffelStandIn {
  readonly url: string;
  /** Every request received: method, path, and the headers the adapter sent. */
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }[];
  readonly orders: Map<string, Order>;
  /** `fault` for the next `times` calls of `endpoint`, after the next `skip` calls succeed. */
  fail(endpoint: Endpoint, fault: Fault, times?: number, skip?: number): void;
  /**
   * Every later answer of `endpoint` (each order of a page) passes through `change` as Duffel's wire
   * object: a documented null, a field left out. Until {@link DuffelStandIn.clearFaults}.
   */
  reshape(endpoint: Endpoint, change: (data: Wire) => Wire): void;
  /** Drops the faults not yet used, and the reshapes. */
  clearFaults(): void;
  /** The airline now sells `offerId` at `totalAmount` (a decimal string). */
  reprice(offerId: string, totalAmount: string): void;
  /** The airline no longer sells `offerId`. */
  withdraw(offerId: string): void;
  /** The offer's hold rules: `requires_instant_payment`, and by when a hold of it must be paid. */
  holdRules(offerId: string, rules: Partial<Offer['payment_requirements']>): void;
  /** The airline moved the price of a held (unpaid) order to `totalAmount` (a decimal string). */
  repriceOrder(orderId: string, totalAmount: string): void;
  /**
   * The airline's terms for cancelling `orderId` from now on (its quotes, their confirmation and the
   * order's `cancellation`): Duffel's fields as given ({@link CancellationTerms}); a `refund_to` of
   * `airline_credits` without credits given makes one per passenger worth the refund.
   */
  cancellationTerms(orderId: string, terms: CancellationTerms): void;
  close(): Promise<void>;
}

/** One of Duffel's objects as it goes on the wire, to reshape. */
// biome-ignore lint/suspicious/noExplicitAny: a test reshapes any field of any answer
export type Wire = any;

interface Held {
  offer: Offer;
  withdrawn: boolean;
  orderId?: string;
}

class Refusal extends Error {
  readonly status: number;
  readonly error: DuffelError;
  constructor(status: number, error: DuffelError) {
    super(error.message);
    this.status = status;
    this.error = error;
  }
}

const refuse = (status: number, type: string, code: string, message: string, field?: string) =>
  new Refusal(status, {
    type,
    code,
    title: code.replaceAll('_', ' '),
    message,
    documentation_url: `https://duffel.com/docs/api/overview/errors#${code}`,
    ...(field && { source: { field, pointer: `/${field.replaceAll(/[[\].]+/g, '/')}` } }),
  });

const TITLES = ['mr', 'mrs', 'ms', 'miss', 'dr'];

/** What the stand-in keeps, as Duffel would: its offers, orders and cancellation quotes. */
interface Store {
  readonly now: () => number;
  readonly currency: string;
  readonly offerTtlSeconds: number;
  readonly offers: Map<string, Held>;
  readonly orders: Map<string, Order>;
  readonly cancellations: Map<string, OrderCancellation>;
  /** The airline's own terms of cancelling an order, where a test set them. */
  readonly cancellationTerms: Map<string, CancellationTerms>;
  /** Order change requests, their offers and the changes made (duffel-stand-in-changes.ts). */
  readonly orderChanges: ChangeStore;
}

/** What tests set and read: faults and reshapes per endpoint, the requests received, the rate window. */
interface Traffic {
  readonly limit: number;
  readonly faults: Map<Endpoint, { fault: Fault; times: number; skip?: number }>;
  readonly reshapes: Map<Endpoint, (data: Wire) => Wire>;
  readonly requests: DuffelStandIn['requests'];
  window: { start: number; used: number };
}

export async function startDuffelStandIn(options: StandInOptions = {}): Promise<DuffelStandIn> {
  const now = options.now ?? Date.now;
  const store: Store = {
    now,
    currency: options.currency ?? 'GBP',
    offerTtlSeconds: options.offerTtlSeconds ?? 1800,
    offers: new Map(),
    orders: new Map(),
    cancellations: new Map(),
    cancellationTerms: new Map(),
    orderChanges: emptyChangeStore(),
  };
  const traffic: Traffic = {
    limit: options.rateLimit ?? 600,
    faults: new Map(),
    reshapes: new Map(),
    requests: [],
    window: { start: now(), used: 0 },
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) =>
    answer(store, traffic, req, res, (path, body) => control(api, traffic, path, body, res)),
  );
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const api = standInApi(`http://127.0.0.1:${port}`, store, traffic, async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return api;
}

/** The stand-in as tests drive it: what it received, its orders, and the airline's and network's moves. */
function standInApi(url: string, store: Store, traffic: Traffic, close: () => Promise<void>): DuffelStandIn {
  const { offers, orders } = store;
  const { faults, reshapes } = traffic;
  return {
    url,
    requests: traffic.requests,
    orders,
    fail: (endpoint, fault, times = 1, skip = 0) => void faults.set(endpoint, { fault, times, skip }),
    reshape: (endpoint, change) => void reshapes.set(endpoint, change),
    clearFaults: () => {
      faults.clear();
      reshapes.clear();
    },
    reprice: (offerId, totalAmount) => {
      const held = offers.get(offerId);
      if (held) held.offer = { ...held.offer, ...repriced(totalAmount, held.offer.total_currency) };
    },
    withdraw: (offerId) => {
      const held = offers.get(offerId);
      if (held) held.withdrawn = true;
    },
    holdRules: (offerId, rules) => {
      const held = offers.get(offerId);
      if (held) {
        const payment_requirements = { ...held.offer.payment_requirements, ...rules };
        held.offer = { ...held.offer, payment_requirements };
      }
    },
    repriceOrder: (orderId, totalAmount) => {
      const order = orders.get(orderId);
      if (order) orders.set(orderId, { ...order, total_amount: totalAmount, base_amount: totalAmount });
    },
    cancellationTerms: (orderId, terms) => void store.cancellationTerms.set(orderId, terms),
    close,
  };
}

/**
 * The `/_stand-in/` switches over HTTP, for `npm run duffel-stand-in`: faults, reprices, withdrawals,
 * and an order's cancellation terms (`{"order_id", "terms"}`, as {@link DuffelStandIn.cancellationTerms}).
 */
function control(api: DuffelStandIn, traffic: Traffic, path: string, body: unknown, res: ServerResponse) {
  const input = (body ?? {}) as {
    endpoint?: Endpoint;
    fault?: Fault;
    times?: number;
    offer_id?: string;
    order_id?: string;
    total_amount?: string;
    terms?: CancellationTerms;
  };
  if (path === '/_stand-in/faults' && input.endpoint && input.fault) {
    traffic.faults.set(input.endpoint, { fault: input.fault, times: input.times ?? 1 });
  } else if (path === '/_stand-in/offers/reprice' && input.offer_id && input.total_amount) {
    api.reprice(input.offer_id, input.total_amount);
  } else if (path === '/_stand-in/orders/reprice' && input.order_id && input.total_amount) {
    api.repriceOrder(input.order_id, input.total_amount);
  } else if (path === '/_stand-in/offers/withdraw' && input.offer_id) {
    api.withdraw(input.offer_id);
  } else if (path === '/_stand-in/orders/cancellation-terms' && input.order_id && input.terms) {
    api.cancellationTerms(input.order_id, input.terms);
  } else {
    res.writeHead(400).end();
    return;
  }
  res.writeHead(204).end();
}

/**
 * One request, as Duffel answers it: the switches aside, recorded (the last 1,000), counted against the
 * rate window, checked (token, version, limit, route), then an injected fault or the endpoint's work,
 * its answer in Duffel's envelope through any reshape.
 */
async function answer(
  store: Store,
  traffic: Traffic,
  req: IncomingMessage,
  res: ServerResponse,
  switches: (path: string, body: unknown) => void,
): Promise<void> {
  const requestId = randomUUID().replaceAll('-', '').slice(0, 20);
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const body = parsedBody(await readAll(req));
  if (url.pathname.startsWith('/_stand-in/')) return switches(url.pathname, body);
  const { requests } = traffic;
  requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
  // A long-running stand-in (npm run duffel-stand-in) keeps the last 1,000 only.
  if (requests.length > 1000) requests.splice(0, requests.length - 1000);
  const send = rateCounted(store, traffic, requestId, res);
  try {
    const route = admitted(traffic, req, url);
    const fault = takeFault(traffic, route.endpoint);
    if (failsBefore(fault)) return; // the socket stays open, unanswered
    const [status, data] = handlers[route.endpoint](store, body, route.id, url.searchParams);
    if (fault?.kind === 'timeout-after') return;
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'error-after')
      throw refuse(fault.status, 'api_error', 'internal_server_error', 'Injected fault after acting.');
    // Through JSON, as on the wire: objects shared in memory (one airline as owner and carrier) are not.
    const shape = (item: unknown) =>
      traffic.reshapes.get(route.endpoint)?.(JSON.parse(JSON.stringify(item))) ?? item;
    send(
      status,
      isPage(data) ? { data: data.list.map(shape), meta: data.meta } : { data: shape(wire(data)) },
    );
  } catch (error) {
    const refusal =
      error instanceof Refusal
        ? error
        : refuse(500, 'api_error', 'internal_server_error', 'Something went wrong.');
    send(refusal.status, {
      errors: [refusal.error],
      meta: { status: refusal.status, request_id: requestId },
    });
  }
}

const parsedBody = (raw: string): unknown => {
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
};

/** Counts the request in the 60-second window; what answers it, with Duffel's `ratelimit-*` headers. */
function rateCounted(store: Store, traffic: Traffic, requestId: string, res: ServerResponse) {
  const { limit } = traffic;
  if (store.now() - traffic.window.start >= 60_000) traffic.window = { start: store.now(), used: 0 };
  traffic.window.used++;
  const headers = {
    'content-type': 'application/json',
    'x-request-id': requestId,
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, limit - traffic.window.used)),
    'ratelimit-reset': new Date(traffic.window.start + 60_000).toUTCString(),
  };
  return (status: number, payload: unknown) => {
    res.writeHead(status, headers);
    res.end(JSON.stringify(payload));
  };
}

/** Duffel's gate before any endpoint: a test or live token, `Duffel-Version: v2`, the rate limit, a known route. */
function admitted(traffic: Traffic, req: IncomingMessage, url: URL): { endpoint: Endpoint; id: string } {
  if (!/^Bearer duffel_(test|live)_\S+$/.test(req.headers.authorization ?? '')) {
    throw refuse(401, 'authentication_error', 'invalid_token', 'The access token was not valid.');
  }
  if (req.headers['duffel-version'] !== 'v2') {
    throw refuse(400, 'invalid_request_error', 'unsupported_version', 'Duffel-Version: v2 is required.');
  }
  if (traffic.window.used > traffic.limit)
    throw refuse(429, 'rate_limit_error', 'rate_limit_exceeded', 'Too many requests.');
  const route = routeOf(req.method ?? '', url.pathname);
  if (!route) throw refuse(404, 'invalid_request_error', 'not_found', 'No such endpoint.');
  return route;
}

/** The fault injected for this call of `endpoint`, if any: used up after its `times`, once `skip` calls passed. */
function takeFault(traffic: Traffic, endpoint: Endpoint): Fault | undefined {
  const entry = traffic.faults.get(endpoint);
  if (!entry) return undefined;
  if (entry.skip && entry.skip-- > 0) return undefined;
  if (--entry.times <= 0) traffic.faults.delete(endpoint);
  return entry.fault;
}

/** A fault that acts before the endpoint does: a status or a refusal (thrown), or no answer at all (true). */
function failsBefore(fault: Fault | undefined): boolean {
  if (fault?.kind === 'status') {
    const type = fault.status === 429 ? 'rate_limit_error' : 'api_error';
    const code = fault.status === 429 ? 'rate_limit_exceeded' : 'internal_server_error';
    throw refuse(fault.status, type, code, 'Injected fault.');
  }
  if (fault?.kind === 'refuse') {
    const base = refuse(fault.status ?? 422, 'airline_error', 'airline_unknown', 'The airline refused.');
    throw new Refusal(base.status, { ...base.error, ...fault.error });
  }
  return fault?.kind === 'timeout-before';
}

/** An offer that may still be ordered: known, not withdrawn, not ordered, not expired. */
function heldOffer(store: Store, id: string): Held {
  const held = store.offers.get(id);
  if (!held) throw refuse(404, 'invalid_request_error', 'not_found', 'The offer does not exist.');
  if (held.withdrawn || held.orderId || Date.parse(held.offer.expires_at) <= store.now()) {
    throw refuse(422, 'airline_error', 'offer_no_longer_available', 'The offer is no longer available.');
  }
  return held;
}

function knownOrder(store: Store, id: string): Order {
  const order = store.orders.get(id);
  if (!order) throw refuse(404, 'invalid_request_error', 'not_found', 'The order does not exist.');
  return order;
}

type Handler = (store: Store, body: unknown, id: string, query: URLSearchParams) => [number, unknown];

/** Each endpoint's work, on what the stand-in keeps. */
const handlers: Record<Endpoint, Handler> = {
  'offer_requests.create': (store, body) => createOfferRequest(store, body),
  'offers.get': (store, _body, id, query) => {
    const { offer } = heldOffer(store, id);
    // Duffel lists an offer's services only when asked (`return_available_services=true`).
    const services = query.get('return_available_services') === 'true' ? standInBags(offer) : [];
    return [200, { ...offer, available_services: services }];
  },
  'seat_maps.list': (store, _body, _id, query) => [
    200,
    standInSeatMaps(heldOffer(store, query.get('offer_id') ?? '').offer),
  ],
  'orders.create': (store, body) => createOrder(store, body),
  'orders.get': (store, _body, id) => [200, knownOrder(store, id)],
  'orders.list': (store, _body, _id, query) => listOrders(store, query),
  'order_cancellations.create': (store, body) => createCancellation(store, body),
  'order_cancellations.confirm': (store, _body, id) => confirmCancellation(store, id),
  'payments.create': (store, body) => createPayment(store, body),
  'order_change_requests.create': (store, body) => createChangeRequest(changeContext(store), dataOf(body)),
  'order_change_requests.get': (store, _body, id) => getChangeRequest(changeContext(store), id),
  'order_changes.create': (store, body) => createOrderChange(changeContext(store), dataOf(body)),
  'order_changes.get': (store, _body, id) => getOrderChange(changeContext(store), id),
  'order_changes.confirm': (store, body, id) =>
    confirmOrderChange(
      changeContext(store),
      id,
      body && typeof body === 'object' && 'data' in body ? dataOf(body) : undefined,
    ),
};

/** What the order change endpoints are given of the store (duffel-stand-in-changes.ts). */
const changeContext = (store: Store): ChangeContext => ({
  now: store.now,
  currency: store.currency,
  offerTtlSeconds: store.offerTtlSeconds,
  orders: store.orders,
  changes: store.orderChanges,
  refuse,
});

/** An offer request: its offers kept, answered as Duffel does (offers without their services). */
function createOfferRequest(store: Store, body: unknown): [number, unknown] {
  const request = dataOf<CreateOfferRequest>(body);
  if (!Array.isArray(request.slices) || request.slices.length === 0 || !Array.isArray(request.passengers)) {
    throw refuse(422, 'validation_error', 'validation_required', 'Field is required.', 'slices');
  }
  const made = offersFor(request, {
    currency: store.currency,
    now: store.now(),
    offerTtlSeconds: store.offerTtlSeconds,
  });
  for (const offer of made.offers) store.offers.set(offer.id, { offer, withdrawn: false });
  const id = duffelId('orq');
  return [
    201,
    {
      id,
      live_mode: false,
      created_at: new Date(store.now()).toISOString(),
      cabin_class: request.cabin_class,
      passengers: made.passengers.map(({ id: pid, type, age }) => ({
        id: pid,
        ...(type && { type }),
        ...(age !== null && { age }),
      })),
      slices:
        made.offers[0]?.slices.map((s) => ({
          origin: s.origin,
          destination: s.destination,
          origin_type: 'airport',
          destination_type: 'airport',
          departure_date: s.segments[0]?.departing_at.slice(0, 10) ?? '',
        })) ?? [],
      offers: made.offers.map(({ available_services: _, ...offer }) => offer),
    },
  ];
}

/** An order of a held offer: paid now from the balance, or a hold (`hold`, or the SDK's `pay_later`). */
function createOrder(store: Store, body: unknown): [number, unknown] {
  // Duffel's v2 documents `hold`; the SDK's type still says `pay_later`: both are taken.
  const request = dataOf<Omit<CreateOrder, 'type'> & { type: 'instant' | 'hold' | 'pay_later' }>(body);
  const [offerId] = request.selected_offers ?? [];
  const stored = offerId ? store.offers.get(offerId) : undefined;
  if (stored?.orderId) {
    throw refuse(422, 'invalid_state_error', 'already_booked', 'The offer has already been booked.');
  }
  const held = heldOffer(store, offerId ?? '');
  const passengers = checkedPassengers(held.offer, request.passengers);
  const hold = request.type === 'hold' || request.type === 'pay_later';
  if (hold && held.offer.payment_requirements.requires_instant_payment) {
    throw refuse(
      422,
      'validation_error',
      'offer_requires_instant_payment',
      'This offer must be paid instantly.',
      'type',
    );
  }
  // Bags and seats ordered with it (`services`), priced as the offer's services list them.
  const bought = servicesOf(held.offer, request.services ?? []);
  const priced = bought.length > 0 ? withServices(held.offer, bought) : held.offer;
  if (!hold) checkBalancePayment(request.payments, priced);
  const made = orderFrom(priced, passengers, {
    metadata: request.metadata ?? {},
    held: hold,
    now: store.now(),
  });
  const order = bought.length > 0 ? { ...made, services: bought } : made;
  held.orderId = order.id;
  store.orders.set(order.id, order);
  return [201, order];
}

/** The order's services, or Duffel's 422 for one the offer does not sell. */
function servicesOf(offer: Offer, asked: readonly { id: string; quantity: number }[]) {
  try {
    return orderedServices(offer, asked);
  } catch (error) {
    if (!(error instanceof ServiceRefusal)) throw error;
    throw refuse(422, 'validation_error', 'invalid_service', 'The service is not available.', error.field);
  }
}

/** An instant order's payment: from the balance, exactly the offer's total. */
function checkBalancePayment(payments: CreateOrder['payments'] | undefined, offer: Offer) {
  const [payment] = payments ?? [];
  if (payment?.type !== 'balance') {
    throw refuse(
      422,
      'validation_error',
      'validation_required',
      'A balance payment is required.',
      'payments',
    );
  }
  if (payment.currency !== offer.total_currency || payment.amount !== offer.total_amount) {
    throw refuse(
      422,
      'airline_error',
      'price_changed',
      'The price of the offer has changed.',
      'payments[0].amount',
    );
  }
}

/** Orders newest first, by a passenger's name if asked, a page at a time (`limit`, `after`). */
function listOrders(store: Store, query: URLSearchParams): [number, unknown] {
  const names = query.getAll('passenger_name[]').map((n) => n.toLowerCase());
  const all = [...store.orders.values()]
    .filter(
      (o) =>
        names.length === 0 ||
        o.passengers.some(
          (p) => names.includes(p.family_name.toLowerCase()) || names.includes(p.given_name.toLowerCase()),
        ),
    )
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  const size = Math.min(200, Number(query.get('limit') ?? 50) || 50);
  const after = query.get('after');
  const start = after ? all.findIndex((o) => o.id === after) + 1 : 0;
  const page = all.slice(start, start + size);
  const next = start + size < all.length ? (page.at(-1)?.id ?? null) : null;
  return [200, { list: page, meta: { limit: size, after: next, before: null } }];
}

/** A cancellation quote: the paid amount back, less the fare's penalty; an unpaid hold gets nothing back. */
function createCancellation(store: Store, body: unknown): [number, unknown] {
  const order = knownOrder(store, dataOf<CreateOrderCancellation>(body).order_id);
  if (order.cancelled_at)
    throw refuse(422, 'invalid_state_error', 'already_cancelled', 'The order is already cancelled.');
  // An unpaid hold was never charged: nothing to refund.
  const paid = order.payment_status.awaiting_payment
    ? 0
    : minorUnits(order.total_amount, order.total_currency);
  const quote = withTerms(cancellationFor(order, paid ?? 0, store.now()), order, store);
  store.cancellations.set(quote.id, quote);
  return [201, quote];
}

/** A quote on the airline's terms for `order`, where a test set them (null fields as Duffel sends them). */
function withTerms(quote: OrderCancellation, order: Order, store: Store): OrderCancellation {
  const terms = store.cancellationTerms.get(order.id);
  if (!terms) return quote;
  const stated = { ...quote, ...terms } as Wire;
  if (terms.refund_to === 'airline_credits' && terms.airline_credits === undefined) {
    const minor = minorUnits(stated.refund_amount ?? '', stated.refund_currency ?? '') ?? 0;
    stated.airline_credits = airlineCreditsFor(order, minor);
  }
  return stated;
}

/** Confirms a quote that has not expired: the order is cancelled, once. */
function confirmCancellation(store: Store, id: string): [number, unknown] {
  const quote = store.cancellations.get(id);
  if (!quote) throw refuse(404, 'invalid_request_error', 'not_found', 'The cancellation does not exist.');
  if (quote.confirmed_at) throw refuse(422, 'invalid_state_error', 'already_confirmed', 'Already confirmed.');
  if (Date.parse(quote.expires_at) <= store.now())
    throw refuse(422, 'invalid_state_error', 'cancellation_expired', 'The quote expired.');
  const order = knownOrder(store, quote.order_id);
  // Another quote of the order confirmed first: Duffel cancels an order once.
  if (order.cancelled_at)
    throw refuse(422, 'invalid_state_error', 'already_cancelled', 'The order is already cancelled.');
  const confirmed = { ...quote, confirmed_at: new Date(store.now()).toISOString() };
  store.cancellations.set(id, confirmed);
  store.orders.set(order.id, {
    ...order,
    cancelled_at: confirmed.confirmed_at,
    cancellation: confirmed,
    available_actions: [],
  });
  return [200, confirmed];
}

/** Pays a held order, at its current total, before its deadline. */
function createPayment(store: Store, body: unknown): [number, unknown] {
  const request = dataOf<CreatePayment>(body);
  const order = knownOrder(store, request.order_id);
  if (!order.payment_status.awaiting_payment)
    throw refuse(422, 'invalid_state_error', 'already_paid', 'The order is paid.');
  const { payment_required_by: deadline } = order.payment_status;
  if (order.cancelled_at || (deadline && Date.parse(deadline) <= store.now()))
    throw refuse(422, 'invalid_state_error', 'order_not_payable', 'The hold has ended.');
  if (request.payment.amount !== order.total_amount || request.payment.currency !== order.total_currency) {
    throw refuse(
      422,
      'airline_error',
      'price_changed',
      'The price of the order has changed.',
      'payment.amount',
    );
  }
  const paidAt = new Date(store.now()).toISOString();
  store.orders.set(order.id, { ...order, payment_status: { awaiting_payment: false, paid_at: paidAt } });
  return [201, { id: duffelId('pay'), ...request.payment, created_at: paidAt }];
}

/** Duffel writes an unconfirmed cancellation's `confirmed_at` as null. */
const wire = (data: unknown) =>
  data && typeof data === 'object' && 'confirmed_at' in data && !data.confirmed_at
    ? { ...data, confirmed_at: null }
    : data;

const isPage = (data: unknown): data is { list: unknown[]; meta: unknown } =>
  Boolean(data && typeof data === 'object' && 'list' in data && 'meta' in data);

function routeOf(method: string, path: string): { endpoint: Endpoint; id: string } | undefined {
  const table: [string, RegExp, Endpoint][] = [
    ['POST', /^\/air\/offer_requests$/, 'offer_requests.create'],
    ['GET', /^\/air\/offers\/([\w-]+)$/, 'offers.get'],
    ['POST', /^\/air\/orders$/, 'orders.create'],
    ['GET', /^\/air\/orders$/, 'orders.list'],
    ['GET', /^\/air\/orders\/([\w-]+)$/, 'orders.get'],
    ['POST', /^\/air\/order_cancellations$/, 'order_cancellations.create'],
    ['POST', /^\/air\/order_cancellations\/([\w-]+)\/actions\/confirm$/, 'order_cancellations.confirm'],
    ['POST', /^\/air\/payments$/, 'payments.create'],
    ['POST', /^\/air\/order_change_requests$/, 'order_change_requests.create'],
    ['GET', /^\/air\/order_change_requests\/([\w-]+)$/, 'order_change_requests.get'],
    ['POST', /^\/air\/order_changes$/, 'order_changes.create'],
    ['GET', /^\/air\/order_changes\/([\w-]+)$/, 'order_changes.get'],
    ['POST', /^\/air\/order_changes\/([\w-]+)\/actions\/confirm$/, 'order_changes.confirm'],
    ['GET', /^\/air\/seat_maps$/, 'seat_maps.list'],
  ];
  for (const [m, pattern, endpoint] of table) {
    const match = m === method ? pattern.exec(path) : null;
    if (match) return { endpoint, id: match[1] ?? '' };
  }
  return undefined;
}

function dataOf<T>(body: unknown): T {
  if (!body || typeof body !== 'object' || !('data' in body) || !body.data || typeof body.data !== 'object') {
    throw refuse(422, 'validation_error', 'validation_required', 'The body must be {"data": {...}}.', 'data');
  }
  return body.data as T;
}

/** The order's passengers, checked as Duffel checks them: every offer passenger once, fields valid. */
function checkedPassengers(offer: Offer, sent: CreateOrder['passengers'] | undefined): OrderPassenger[] {
  const list = sent ?? [];
  if (list.length !== offer.passengers.length) {
    throw refuse(
      422,
      'validation_error',
      'validation_required',
      'Every passenger of the offer is required.',
      'passengers',
    );
  }
  return list.map((p, i) => {
    const field = (name: string) => `passengers[${i}].${name}`;
    const offered = offer.passengers.find((o) => o.id === p.id);
    if (!offered)
      throw refuse(422, 'validation_error', 'invalid_passenger_id', 'Unknown passenger id.', field('id'));
    if (!TITLES.includes(p.title))
      throw refuse(422, 'validation_error', 'invalid_title', 'Invalid title.', field('title'));
    if (p.gender !== 'm' && p.gender !== 'f')
      throw refuse(422, 'validation_error', 'invalid_gender', 'Gender must be m or f.', field('gender'));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(p.born_on ?? ''))
      throw refuse(422, 'validation_error', 'invalid_date', 'Invalid date.', field('born_on'));
    if (!/^\+[1-9]\d{7,14}$/.test(p.phone_number ?? '')) {
      throw refuse(
        422,
        'validation_error',
        'invalid_phone_number',
        'Invalid phone number.',
        field('phone_number'),
      );
    }
    if (!p.given_name || !p.family_name)
      throw refuse(422, 'validation_error', 'validation_required', 'Name required.', field('given_name'));
    return { ...p, type: offered.type ?? 'adult' };
  });
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `npm run duffel-stand-in`: serve until Ctrl-C. */
if (import.meta.main) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const standIn = await startDuffelStandIn({
    port: Number(arg('port') ?? 4010),
    currency: arg('currency') ?? 'GBP',
  });
  console.log(
    [
      `Duffel stand-in listening on ${standIn.url} (Duffel Airways, ${arg('currency') ?? 'GBP'})`,
      `  SUPPLIER=duffel DUFFEL_ACCESS_TOKEN=duffel_test_local DUFFEL_API_URL=${standIn.url} npm start`,
    ].join('\n'),
  );
  const stop = () => void standIn.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
