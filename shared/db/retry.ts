import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceUnavailableError } from '../errors.ts';

/**
 * How many times in all a DynamoDB step is tried when it can succeed on another try: a transaction
 * that lost a race (another change of the same items, a PNR already taken, a conflict) or a batch read
 * whose keys DynamoDB held back. After that the request answers 503 with `Retry-After: 1`.
 */
const MAX_TRIES = 4;

/** What a try answers to be tried again. */
export const TRY_AGAIN: unique symbol = Symbol('try again');

/**
 * How long to keep trying and what to answer when the tries run out. The default: {@link MAX_TRIES}
 * tries, then 503 — right where another try failing means a dependency is unwell. Where the only cause
 * of another try is clients racing each other (agent changes), more tries and a client error instead.
 */
export interface RetryPolicy {
  readonly tries: number;
  readonly exhausted: () => Error;
}

const DEPENDENCY_RETRIES: RetryPolicy = { tries: MAX_TRIES, exhausted: () => new ServiceUnavailableError(1) };

/**
 * Runs `attempt(1)`, `attempt(2)`, … until one answers anything but {@link TRY_AGAIN}, at most
 * `policy.tries` times, pausing between tries (growing up to 400 ms, with jitter, so racing requests
 * spread out); then throws `policy.exhausted()`. What an attempt throws ends the retries at once.
 *
 * @example await retrying(async () => (await tryTransaction()) ? 'done' : TRY_AGAIN)
 */
export async function retrying<T>(
  attempt: (tryNumber: number) => Promise<T | typeof TRY_AGAIN>,
  policy: RetryPolicy = DEPENDENCY_RETRIES,
): Promise<T> {
  for (let tryNumber = 1; tryNumber <= policy.tries; tryNumber++) {
    if (tryNumber > 1) await sleep(pauseBeforeMs(tryNumber));
    const result = await attempt(tryNumber);
    if (result !== TRY_AGAIN) return result;
  }
  throw policy.exhausted();
}

/** 12–37 ms before the second try, twice that before the third, and so on, up to 200–600 ms. */
const pauseBeforeMs = (tryNumber: number) => Math.min(25 * 2 ** (tryNumber - 2), 400) * (0.5 + Math.random());
