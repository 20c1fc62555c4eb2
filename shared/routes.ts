/**
 * The route table: one entry per public endpoint, plain data only.
 *
 * The local dev server serves exactly these paths, and the CDK stack creates one Lambda function, one
 * API resource and one least-privilege policy per entry. Imports no runtime code, so both can read it
 * without pulling handlers in.
 */

import type { Role } from './auth/roles.ts';
import type { FunctionSpec } from './function-spec.ts';

export interface Route extends FunctionSpec {
  /** Every route is `POST`; the path has no version segment (docs/API.md §1). */
  readonly path: string;
  /** Whether a session token (bearer or cookie) is required. */
  readonly auth: boolean;
  /** The roles allowed on the route (403 FORBIDDEN for others); absent = every signed-in agent. */
  readonly roles?: readonly Role[];
}

export const routes = [
  {
    id: 'send-otp',
    path: '/api/auth/send-otp',
    entry: 'functions/auth/send-otp.ts',
    auth: false,
    table: ['UpdateItem'],
    grants: ['signing-key', 'send-email', 'send-sms'],
  },
  {
    id: 'verify-otp',
    path: '/api/auth/verify-otp',
    entry: 'functions/auth/verify-otp.ts',
    auth: false,
    // GetItem: the role of an agent whose sign-in snapshot was stored before it kept the role.
    table: ['UpdateItem', 'GetItem'],
    grants: ['signing-key'],
  },
  {
    id: 'logout',
    path: '/api/auth/logout',
    entry: 'functions/auth/logout.ts',
    auth: true,
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    // Who is calling: answered from the one session read every authenticated route makes.
    id: 'session',
    path: '/api/auth/session',
    entry: 'functions/auth/session.ts',
    auth: true,
    table: ['GetItem'],
    grants: ['signing-key'],
  },
  {
    // A fresh token for a live session (its sign-in time carried over) and the presented one revoked.
    id: 'refresh',
    path: '/api/auth/refresh',
    entry: 'functions/auth/refresh.ts',
    auth: true,
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'search',
    path: '/api/flights/search',
    entry: 'functions/flights/search.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    // The airports the stage's supplier sells, from data bundled for it: no supplier call, no token.
    id: 'airports-search',
    path: '/api/airports/search',
    entry: 'functions/airports/search.ts',
    auth: true,
    table: ['GetItem'],
    grants: ['signing-key', 'supplier-catalog'],
  },
  {
    id: 'booking-create',
    path: '/api/flights/booking/create',
    entry: 'functions/bookings/create.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    id: 'booking-get',
    path: '/api/flights/booking/get',
    entry: 'functions/bookings/get.ts',
    auth: true,
    // UpdateItem: a late hold's expiry, stored before it is answered (docs/bookings.md).
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-list',
    path: '/api/flights/booking/list',
    entry: 'functions/bookings/list.ts',
    auth: true,
    // BatchGetItem: the bookings of a page of holds by deadline (their listing entries carry ids only).
    table: ['GetItem', 'Query', 'UpdateItem', 'BatchGetItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-confirm',
    path: '/api/flights/booking/confirm',
    entry: 'functions/bookings/confirm.ts',
    auth: true,
    table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    id: 'booking-cancel',
    path: '/api/flights/booking/cancel',
    entry: 'functions/bookings/cancel.ts',
    auth: true,
    table: ['GetItem', 'UpdateItem', 'DeleteItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    id: 'booking-refund-quote',
    path: '/api/flights/booking/refund-quote',
    entry: 'functions/bookings/refund-quote.ts',
    auth: true,
    // Reads the booking; a remote supplier's quote is asked of the supplier, and nothing is written.
    table: ['GetItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    // Reads the booking and the changed journeys' inventory; writes nothing (docs/API.md §4.9).
    id: 'booking-change-search',
    path: '/api/flights/booking/change-search',
    entry: 'functions/bookings/change-search.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem'],
    // supplier: a remote supplier's change offers are asked of it (docs/API.md §4.9).
    grants: ['signing-key', 'supplier'],
  },
  {
    // One transaction: the booking, the seats back and taken, the Idempotency-Key's answer.
    id: 'booking-change',
    path: '/api/flights/booking/change',
    entry: 'functions/bookings/change.ts',
    auth: true,
    // UpdateItem also claims a remote change's call; supplier: a remote supplier's change is made there.
    table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    id: 'booking-note',
    path: '/api/flights/booking/note',
    entry: 'functions/bookings/note.ts',
    auth: true,
    // GetItem: the booking; UpdateItem: the note appended (and a late hold's expiry stored before it is answered).
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-itinerary',
    path: '/api/flights/booking/itinerary',
    entry: 'functions/bookings/itinerary.ts',
    auth: true,
    // GetItem: the booking and the agency's name; UpdateItem: a late hold's expiry, stored before it is answered.
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-resend',
    path: '/api/flights/booking/resend',
    entry: 'functions/bookings/resend.ts',
    auth: true,
    // UpdateItem: the note and the limit's slot (taken back if SES refuses), a late hold's expiry.
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key', 'send-notice'],
  },
  {
    // The bags and seat maps of an offer (docs/API.md §4.10): the offer's marker and the flight-dates'
    // chosen seats are read; a remote supplier is asked; nothing is written.
    id: 'offer-services',
    path: '/api/flights/offer/services',
    entry: 'functions/flights/services.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem'],
    grants: ['signing-key', 'supplier'],
  },
  {
    id: 'agency-agents-list',
    path: '/api/agency/agents/list',
    entry: 'functions/agency/agents-list.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'Query'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-agents-create',
    path: '/api/agency/agents/create',
    entry: 'functions/agency/agents-create.ts',
    auth: true,
    roles: ['ADMIN'],
    // ConditionCheckItem: the caller's right to act, checked inside the registering transaction.
    table: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-agents-update',
    path: '/api/agency/agents/update',
    entry: 'functions/agency/agents-update.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'UpdateItem', 'ConditionCheckItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-webhooks-create',
    path: '/api/agency/webhooks/create',
    entry: 'functions/agency/webhooks-create.ts',
    auth: true,
    roles: ['ADMIN'],
    // ConditionCheckItem: the caller's right to act, checked inside the registering transaction.
    table: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-webhooks-list',
    path: '/api/agency/webhooks/list',
    entry: 'functions/agency/webhooks-list.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'QueryTable'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-webhooks-delete',
    path: '/api/agency/webhooks/delete',
    entry: 'functions/agency/webhooks-delete.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-webhooks-ping',
    path: '/api/agency/webhooks/ping',
    entry: 'functions/agency/webhooks-ping.ts',
    auth: true,
    roles: ['ADMIN'],
    // The endpoint (read, still there), the ping limits' items (read, a slot taken: the endpoint URL's
    // and the agency's), the ping event's item (the stream makes its delivery, so the route needs no
    // queue), the caller's right.
    table: ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
    grants: ['signing-key'],
  },
] as const satisfies readonly Route[];

/**
 * The functions no route invokes (docs/API.md §4.6): `events` reads the table's stream and publishes
 * each booking state change (the traveller's notice, one delivery per webhook endpoint); `deliveries`
 * takes webhook attempts from the delivery queue. The stack builds and grants them like the routes; a
 * permission test checks their table actions the same way.
 */
export const eventFunctions = [
  {
    id: 'events',
    entry: 'functions/events/stream.ts',
    // Agency name, notice guard, endpoints (Query), delivery items.
    table: ['GetItem', 'QueryTable', 'PutItem', 'UpdateItem'],
    grants: ['send-notice', 'delivery-queue'],
    timeoutSeconds: 60,
  },
  {
    id: 'deliveries',
    entry: 'functions/events/deliver.ts',
    // Claim and finish attempts, read the endpoint, record its last delivery.
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key', 'delivery-queue'],
    // Ten attempts side by side, each with a 10-second deadline, and the writes around them.
    timeoutSeconds: 30,
  },
] as const satisfies readonly FunctionSpec[];

export type RouteId = (typeof routes)[number]['id'];
type RouteOf<I extends RouteId> = Extract<(typeof routes)[number], { id: I }>;

/**
 * The route-table entry named `id`: a function file names its route, and the HTTP stack takes the
 * route's facts (authentication) from the table rather than from a second copy.
 *
 * @example httpHandler(route('search'), createSearchRequest(ctx.clock), action, ctx)
 */
export function route<I extends RouteId>(id: I): RouteOf<I> {
  const found = routes.find((entry) => entry.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found as RouteOf<I>;
}

/** The only method any route accepts. */
export const ROUTE_METHOD = 'POST';

/**
 * Not an API endpoint: the OpenAPI document (`npm run openapi` writes it), served by `GET` from the same
 * handler by the dev server and the deployed stack. It touches no table and holds no grants.
 */
export const documentRoute = {
  id: 'openapi',
  path: '/openapi.json',
  entry: 'functions/docs/openapi.ts',
  auth: false,
  table: [],
  grants: [],
} as const satisfies Route;

/**
 * Not an API endpoint: the sweep, run every {@link SWEEP_EVERY_SECONDS} by a schedule when deployed and
 * by a timer in `npm start`. It expires late holds and gives their seats back (docs/API.md §4.4), and
 * settles the PENDING bookings of a remote supplier by asking it for their orders (§4.5).
 */
export const sweepJob = {
  id: 'sweep',
  entry: 'functions/jobs/sweep.ts',
  // The holds and PENDING listings (Queries of the table itself); each booking read, then expired or
  // settled in one transaction (the PNR's Put among them).
  table: ['GetItem', 'QueryTable', 'PutItem', 'UpdateItem', 'DeleteItem'],
  grants: ['signing-key', 'supplier'],
} as const satisfies FunctionSpec;

/** How often the sweep runs: late holds read as EXPIRED at once and free their seats within this. */
export const SWEEP_EVERY_SECONDS = 60;
