/** The business clock: expiries, throttles and token times read it, so tests can move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export function systemClock(): Clock {
  return { now: () => Date.now() };
}

/** `2026-12-01T09:30:00Z`: ISO 8601 UTC, whole seconds, as the contract writes every `*_at`. */
export function isoSeconds(epochMillis: number): string {
  return `${new Date(epochMillis).toISOString().slice(0, 19)}Z`;
}
