import createClient from 'openapi-fetch';
import type { components, paths } from '../api/schema.d.ts';
import { BASE } from './base.ts';

/**
 * The typed client (types generated from openapi.json: `npm run openapi`). Same origin, below the
 * page's base (`/dev/api/…` on a stage), and the `__Host-session` cookie is the only credential: no
 * token is ever read, kept or sent by this code.
 */
export const client = createClient<paths>({ baseUrl: BASE, credentials: 'same-origin' });

export type Schemas = components['schemas'];

/** A failed call as the console shows it: the contract's error, or "unreachable" when none came back. */
export interface Failure {
  status: number;
  code: string;
  message: string;
  details?: unknown;
  /** The request id every answer carries (in the body for errors, else the X-Request-Id header). */
  requestId?: string;
  /** Seconds from `Retry-After`, where the answer has one. */
  retryAfter?: number;
}

export type Outcome<T> = { ok: true; status: number; body: T } | { ok: false; failure: Failure };

/** Called when an answer says the session is gone (401 UNAUTHORIZED): the app returns to sign-in. */
let sessionEnded: () => void = () => {};
export function onSessionEnded(listener: () => void): void {
  sessionEnded = listener;
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown; request_id?: string };
}

function failureOf(response: Response, body: unknown): Failure {
  const error = (body as ErrorBody | undefined)?.error;
  const retry = Number(response.headers.get('Retry-After'));
  return {
    status: response.status,
    code: error?.code ?? `HTTP_${response.status}`,
    message: error?.message ?? `The service answered ${response.status}.`,
    details: error?.details,
    requestId: error?.request_id ?? response.headers.get('X-Request-Id') ?? undefined,
    ...(Number.isFinite(retry) && retry > 0 && { retryAfter: retry }),
  };
}

const unreachable = (error: unknown): Failure => ({
  status: 0,
  code: (error as Error)?.name === 'AbortError' ? 'ABORTED' : 'UNREACHABLE',
  message: 'The service could not be reached. Check the connection and try again.',
});

/**
 * Settles a typed call (`client.POST(…)`) into an {@link Outcome}. A 401 `UNAUTHORIZED` ends the
 * session everywhere unless `quiet` (the session check itself, sign-in).
 */
export async function settle<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  options: { quiet?: boolean } = {},
): Promise<Outcome<T>> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    return { ok: false, failure: unreachable(error) };
  }
  const { response } = result;
  if (response.ok && result.data !== undefined)
    return { ok: true, status: response.status, body: result.data };
  const failure = failureOf(response, result.error);
  if (failure.status === 401 && failure.code === 'UNAUTHORIZED' && !options.quiet) sessionEnded();
  return { ok: false, failure };
}

/** The error codes of a VALIDATION_ERROR by field path (`passengers.0.born_on` → its message). */
export function fieldErrors(failure: Failure | undefined): Map<string, string> {
  const errors = new Map<string, string>();
  if (failure?.code !== 'VALIDATION_ERROR' || !Array.isArray(failure.details)) return errors;
  for (const detail of failure.details as { path?: unknown; message?: unknown }[]) {
    if (typeof detail.path === 'string' && typeof detail.message === 'string' && !errors.has(detail.path))
      errors.set(detail.path, detail.message);
  }
  return errors;
}

/**
 * What to say about a VALIDATION_ERROR: the fields' own messages stand beside them, so the summary
 * points there, and names (path and message) only the problems no field on the screen shows.
 */
export function validationSummary(
  errors: ReadonlyMap<string, string>,
  shown: (path: string) => boolean,
): string {
  const elsewhere = [...errors].filter(([path]) => !shown(path));
  if (elsewhere.length === 0) return 'Some fields need a change: see the messages beside them.';
  return elsewhere.map(([path, message]) => `${path}: ${message}`).join(' · ');
}

/** One attempt of a request that must happen once: the body sent and its Idempotency-Key. */
export interface Attempt {
  body: string;
  key: string;
}

/**
 * The attempt to send `body` as: the previous one again when the body is the same (a retry after no
 * answer, a double click), so the service does it once; otherwise a new attempt with a new key.
 */
export function attemptFor(previous: Attempt | undefined, body: string, newKey: () => string): Attempt {
  return previous?.body === body ? previous : { body, key: newKey() };
}
