import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceUnavailableError } from '../errors.ts';

/**
 * How many times in all a DynamoDB step is tried when it can succeed on another try: a transaction
 * that lost a race (another change of the same items, a PNR already taken, a conflict) or a batch read
 * whose keys DynamoDB held back. After that the request answers 503 with `Retry-After: 1`.
 */
export const MAX_TRIES = 4;

/** What a try answers to be tried again. */
export const TRY_AGAIN: unique symbol = Symbol('try again');

/**
 * Runs `attempt(1)`, `attempt(2)`, … until one answers anything but {@link TRY_AGAIN}, at most
 * {@link MAX_TRIES} times, pausing between tries (growing, with jitter, so racing requests spread out);
 * then 503 SERVICE_UNAVAILABLE. What an attempt throws ends the retries at once.
 *
 * @example await retrying(async () => (await tryTransaction()) ? 'done' : TRY_AGAIN)
 */
export async function retrying<T>(attempt: (tryNumber: number) => Promise<T | typeof TRY_AGAIN>): Promise<T> {
  for (let tryNumber = 1; tryNumber <= MAX_TRIES; tryNumber++) {
    if (tryNumber > 1) await sleep(pauseBeforeMs(tryNumber));
    const result = await attempt(tryNumber);
    if (result !== TRY_AGAIN) return result;
  }
  throw new ServiceUnavailableError(1);
}

/** 12–37 ms before the second try, twice that before the third, and so on. */
const pauseBeforeMs = (tryNumber: number) => 25 * 2 ** (tryNumber - 2) * (0.5 + Math.random());
