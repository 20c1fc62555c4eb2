/**
 * The route table: one entry per public endpoint, plain data only.
 *
 * The local dev server serves exactly these paths, and the CDK stack creates one Lambda function, one
 * API resource and one least-privilege policy per entry. Imports no runtime code, so both can read it
 * without pulling handlers in.
 */

import type { Role } from './auth/roles.ts';

/**
 * DynamoDB actions a route's function may perform on the table (transactions need their parts).
 * `Query` queries the GSI (and is granted on the table and the index); `QueryTable` queries the table
 * itself and is granted on the table only.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'QueryTable'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem';

/** The IAM action of a table action: `dynamodb:GetItem`, … (`QueryTable` is `dynamodb:Query`). */
export const iamTableAction = (action: TableAction) =>
  `dynamodb:${action === 'QueryTable' ? 'Query' : action}`;

/** Grants beyond the table, named by what they allow. */
export type ExtraGrant =
  | 'signing-key'
  | 'send-email'
  | 'send-sms'
  /** SES SendEmail of traveller notices, pinned to the stage's sender like `send-email`. */
  | 'send-notice'
  /** sqs:SendMessage on the webhook delivery queue. */
  | 'delivery-queue';

/** A Lambda function of the service: what the stack builds it from and grants it. */
export interface FunctionSpec {
  /** Stable id, used for function and resource names. */
  readonly id: string;
  /** Handler entry file, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  /** Exactly the table actions the function uses; `Query` also grants the GSI, `QueryTable` does not. */
  readonly table: readonly TableAction[];
  readonly grants: readonly ExtraGrant[];
  /** The function's memory, when not {@link FUNCTION_DEFAULTS}' (Lambda gives CPU in proportion). */
  readonly memoryMb?: number;
  /** The function's deadline, when not {@link FUNCTION_DEFAULTS}'. */
  readonly timeoutSeconds?: number;
}

export interface Route extends FunctionSpec {
  /** Every route is `POST`; the path has no version segment (docs/API.md §1). */
  readonly path: string;
  /** Whether a session token (bearer or cookie) is required. */
  readonly auth: boolean;
  /** The roles allowed on the route (403 FORBIDDEN for others); absent = every signed-in agent. */
  readonly roles?: readonly Role[];
}

/**
 * Every function's size and deadline unless its route says otherwise: the stack deploys them and the
 * dev server hands handlers the same deadline (the SDK's own deadlines are 1 s connect, 3 s request).
 */
export const FUNCTION_DEFAULTS = { memoryMb: 512, timeoutSeconds: 10 } as const;

/** The memory and timeout `route`'s function runs with, deployed and locally. */
export function functionSettings(route: FunctionSpec): { memoryMb: number; timeoutSeconds: number } {
  return {
    memoryMb: route.memoryMb ?? FUNCTION_DEFAULTS.memoryMb,
    timeoutSeconds: route.timeoutSeconds ?? FUNCTION_DEFAULTS.timeoutSeconds,
  };
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
    table: ['UpdateItem'],
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
    id: 'search',
    path: '/api/flights/search',
    entry: 'functions/flights/search.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-create',
    path: '/api/flights/booking/create',
    entry: 'functions/bookings/create.ts',
    auth: true,
    table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-get',
    path: '/api/flights/booking/get',
    entry: 'functions/bookings/get.ts',
    auth: true,
    table: ['GetItem'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-list',
    path: '/api/flights/booking/list',
    entry: 'functions/bookings/list.ts',
    auth: true,
    table: ['GetItem', 'Query'],
    grants: ['signing-key'],
  },
  {
    id: 'booking-cancel',
    path: '/api/flights/booking/cancel',
    entry: 'functions/bookings/cancel.ts',
    auth: true,
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
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
    table: ['GetItem', 'PutItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-agents-update',
    path: '/api/agency/agents/update',
    entry: 'functions/agency/agents-update.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'UpdateItem'],
    grants: ['signing-key'],
  },
  {
    id: 'agency-webhooks-create',
    path: '/api/agency/webhooks/create',
    entry: 'functions/agency/webhooks-create.ts',
    auth: true,
    roles: ['ADMIN'],
    table: ['GetItem', 'PutItem', 'UpdateItem'],
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
    table: ['GetItem', 'DeleteItem', 'UpdateItem'],
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
export type RouteOf<I extends RouteId> = Extract<(typeof routes)[number], { id: I }>;

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
