/**
 * What the stack builds a Lambda function from and grants it, for routes and the functions no route
 * invokes alike (routes.ts lists them): plain data only, so the stack and the dev server can read it
 * without pulling handlers in.
 */

/**
 * DynamoDB actions a route's function may perform on the table (transactions need their parts).
 * `Query` queries the GSI (and is granted on the table and the index); `QueryTable` queries the table
 * itself and is granted on the table only.
 */
type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'QueryTable'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem';

/** The IAM action of a table action: `dynamodb:GetItem`, … (`QueryTable` is `dynamodb:Query`). */
export const iamTableAction = (action: TableAction) =>
  `dynamodb:${action === 'QueryTable' ? 'Query' : action}`;

/** Grants beyond the table, named by what they allow. */
type ExtraGrant =
  | 'signing-key'
  | 'send-email'
  | 'send-sms'
  /** SES SendEmail of traveller notices, pinned to the stage's sender like `send-email`. */
  | 'send-notice'
  /** sqs:SendMessage on the webhook delivery queue. */
  | 'delivery-queue'
  /**
   * The function calls the stage's flight supplier (docs/API.md §4.5): for Duffel it reads Duffel's
   * token and is bundled with its adapter.
   */
  | 'supplier'
  /**
   * The function answers from data bundled for the stage's supplier (airport search): bundled like a
   * `supplier` function, so it carries only that supplier's data, but it reads no token and calls none.
   */
  | 'supplier-catalog';

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

/**
 * Every function's size and deadline unless its route says otherwise: the stack deploys them and the
 * dev server hands handlers the same deadline (the SDK's own deadlines are 1 s connect, 3 s request).
 */
const FUNCTION_DEFAULTS = { memoryMb: 512, timeoutSeconds: 10 } as const;

/**
 * A function that calls a remote supplier (Duffel) waits on it: a re-read (4 s, tried twice) and an order
 * (12 s) must fit, under API Gateway's 29-second integration limit.
 */
const REMOTE_SUPPLIER_TIMEOUT_SECONDS = 28;

/**
 * The memory and timeout `route`'s function runs with, deployed and locally, in a stage selling from
 * `supplier` (docs/API.md §4.5): the functions granted `supplier` wait longer on a remote one.
 */
export function functionSettings(
  route: FunctionSpec,
  supplier: 'network' | 'duffel' = 'network',
): { memoryMb: number; timeoutSeconds: number } {
  const remote = supplier !== 'network' && route.grants.includes('supplier');
  return {
    memoryMb: route.memoryMb ?? FUNCTION_DEFAULTS.memoryMb,
    timeoutSeconds: remote
      ? REMOTE_SUPPLIER_TIMEOUT_SECONDS
      : (route.timeoutSeconds ?? FUNCTION_DEFAULTS.timeoutSeconds),
  };
}
