import { setTimeout as sleep } from 'node:timers/promises';
import type {} from '@duffel/api';
import type { ApiResponseError } from '@duffel/api/types';
import { ServiceUnavailableError } from '../../errors.ts';
import type { Logger } from '../../log.ts';

/**
 * A thin client for Duffel's API v2 over `fetch`, typed by `@duffel/api`'s types (docs/decisions.md,
 * "Duffel"): what the adapter needs and nothing else — the token, `Duffel-Version: v2`, a timeout per
 * call, bounded retries for the calls that may be repeated, and Duffel's rate-limit headers honoured.
 * The token is sent in one header and is never logged, echoed or put in an error.
 */
export interface DuffelSettings {
  readonly baseUrl: string;
  readonly token: string;
  /** Per call; order creation gets {@link DuffelSettings.orderTimeoutMs}. */
  readonly timeoutMs: number;
  readonly orderTimeoutMs: number;
  /** Tries in all for a call that may be repeated (reads, cancellation quotes). */
  readonly maxTries: number;
  readonly log: Logger;
  readonly now: () => number;
}

/** A Duffel error as it arrives: `source.field` names the request field where it maps. */
export interface DuffelApiError extends ApiResponseError {
  readonly source?: { readonly field?: string; readonly pointer?: string };
}

/** Duffel answered with an error status: what it said. */
export class DuffelRefusal extends Error {
  override name = 'DuffelRefusal';
  readonly status: number;
  readonly errors: readonly DuffelApiError[];
  constructor(status: number, errors: readonly DuffelApiError[]) {
    super(`Duffel answered ${status} ${errors.map((e) => e.code).join(',')}`);
    this.status = status;
    this.errors = errors;
  }
  has(code: string): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** No answer we can trust: a timeout, a dropped connection, a 5xx, a body that is not Duffel's. */
export class DuffelNoAnswer extends Error {
  override name = 'DuffelNoAnswer';
  /** Whether the request may have reached Duffel (and so may have acted). */
  readonly sent: boolean;
  /** Seconds until Duffel's rate-limit window resets, when it said so. */
  readonly retryAfter: number | undefined;
  constructor(reason: string, sent: boolean, retryAfter?: number) {
    super(reason);
    this.sent = sent;
    this.retryAfter = retryAfter;
  }
}

interface DuffelCall {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** Whether the call may be sent again after an unknown outcome (never for order creation). */
  readonly repeatable: boolean;
  /** Order creation: its own, longer timeout. */
  readonly ordering?: boolean;
}

/** Seconds from `now` until the `ratelimit-reset` header's instant (an HTTP date or epoch seconds). */
export function secondsUntilReset(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const at = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}

type Answer<T> = { data: T; meta?: { after?: string | null } };

/** The rate-limit state of one client: the instant (epoch ms) before which no call is sent. */
interface RateLimit {
  blockedUntil: number;
}

/**
 * Creates the client. One rate-limit state per client (per container): after Duffel says the window is
 * spent (429, or `ratelimit-remaining: 0`), calls fail at once with 503 and `Retry-After` until it resets
 * rather than spending Duffel's patience.
 */
export function duffelClient(settings: DuffelSettings) {
  const limit: RateLimit = { blockedUntil: 0 };

  /**
   * Sends `call`, repeating a repeatable one after an unknown outcome (at most `maxTries` in all, with a
   * short pause, waiting out a rate limit only when it resets within a second). Throws DuffelRefusal
   * (Duffel said no), or DuffelNoAnswer when no trustworthy answer came.
   */
  return async function send<T>(call: DuffelCall): Promise<Answer<T>> {
    for (let tryNumber = 1; ; tryNumber++) {
      const waitMs = limit.blockedUntil - settings.now();
      if (waitMs > 1000) throw new DuffelNoAnswer('rate limited', false, Math.ceil(waitMs / 1000));
      if (waitMs > 0) await sleep(waitMs);
      try {
        return await once<T>(settings, limit, call);
      } catch (error) {
        const again =
          error instanceof DuffelNoAnswer &&
          (call.repeatable || !error.sent) &&
          tryNumber < settings.maxTries &&
          (error.retryAfter ?? 0) <= 1;
        if (!again) throw error;
        await sleep(50 * tryNumber);
      }
    }
  };
}

/** One try of `call`: the HTTP exchange, logged, Duffel's rate-limit headers noted, the answer read. */
async function once<T>(settings: DuffelSettings, limit: RateLimit, call: DuffelCall): Promise<Answer<T>> {
  const started = settings.now();
  const response = await exchange(settings, call);
  const reset = secondsUntilReset(response.headers.get('ratelimit-reset'), settings.now());
  if (response.headers.get('ratelimit-remaining') === '0' && reset) {
    limit.blockedUntil = settings.now() + reset * 1000;
  }
  const text = await response.text().catch(() => '');
  settings.log.info('duffel call', {
    method: call.method,
    path: pathOf(call),
    status: response.status,
    ms: settings.now() - started,
    duffel_request_id: response.headers.get('x-request-id') ?? undefined,
  });
  const json = parseJson(text);
  if (response.ok && json && typeof json === 'object' && 'data' in json) return json as Answer<T>;
  if (response.status === 429) {
    limit.blockedUntil = settings.now() + (reset ?? 1) * 1000;
    throw new DuffelNoAnswer('rate limited', false, reset ?? 1);
  }
  throw errorOf(response.status, json);
}

/** The request itself; no response at all is DuffelNoAnswer, `sent` unless refused before sending. */
async function exchange(settings: DuffelSettings, call: DuffelCall): Promise<Response> {
  try {
    return await fetch(new URL(call.path, settings.baseUrl), {
      method: call.method,
      headers: {
        Authorization: `Bearer ${settings.token}`,
        'Duffel-Version': 'v2',
        Accept: 'application/json',
        ...(call.body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(call.body !== undefined && { body: JSON.stringify({ data: call.body }) }),
      signal: AbortSignal.timeout(call.ordering ? settings.orderTimeoutMs : settings.timeoutMs),
    });
  } catch (error) {
    // Refused before anything was sent (no connection) is safe; anything later may have reached Duffel.
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    const sent = code !== 'ECONNREFUSED' && code !== 'ENOTFOUND' && code !== 'EAI_AGAIN';
    settings.log.warn('duffel call failed', {
      method: call.method,
      path: pathOf(call),
      reason: reasonOf(error),
    });
    throw new DuffelNoAnswer(reasonOf(error), sent);
  }
}

/** A failed answer: Duffel's refusal (a 4xx with its errors), or no answer we can trust. */
function errorOf(status: number, json: unknown): DuffelRefusal | DuffelNoAnswer {
  const errors =
    json && typeof json === 'object' && 'errors' in json && Array.isArray(json.errors) ? json.errors : [];
  if (status >= 400 && status < 500 && errors.length > 0) {
    return new DuffelRefusal(status, errors as DuffelApiError[]);
  }
  return new DuffelNoAnswer(`status ${status}`, true);
}

export type DuffelSend = ReturnType<typeof duffelClient>;

/** 503 with `Retry-After` for a supplier that did not answer (docs/API.md §4.5). */
export const supplierUnavailable = (error: DuffelNoAnswer) =>
  new ServiceUnavailableError(error.retryAfter ?? 5);

/** The path without its query (which can carry passenger names). */
const pathOf = (call: DuffelCall) => call.path.split('?')[0] ?? '';

const reasonOf = (error: unknown) =>
  error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.name) : 'unknown';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
