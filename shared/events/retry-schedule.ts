/**
 * When each webhook attempt is due after the one before failed, in seconds: Standard Webhooks'
 * suggested schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). The eighth attempt comes
 * about 27.6 hours after the first, so retries last at least 24 hours (docs/API.md §4.6); if it fails
 * too, the delivery is recorded as failed.
 */
const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** SQS holds a message back at most 15 minutes; a longer wait is taken in several hops. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * The delay before attempt `attempt + 1` after attempt `attempt` failed, scaled by `timeScale`
 * (EVENTS_TIME_SCALE, local only); undefined after the last attempt.
 */
export function retryDelayMs(attempt: number, timeScale = 1): number | undefined {
  const seconds = RETRY_DELAYS_SECONDS[attempt - 1];
  return seconds === undefined ? undefined : seconds * 1000 * timeScale;
}
