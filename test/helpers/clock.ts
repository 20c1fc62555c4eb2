import { vi } from 'vitest';
import { testContext } from './test-context.ts';

/**
 * Freezes the clock of the tests' context at `start` (1 Dec 2026, 09:00 UTC by default) and returns a
 * function that moves it forward. Undone by `vi.restoreAllMocks()`. The process-wide context the
 * deployed functions use is not touched.
 */
export function freezeClock(start = Date.UTC(2026, 11, 1, 9, 0, 0)): (ms: number) => void {
  let now = start;
  vi.spyOn(testContext.clock, 'now').mockImplementation(() => now);
  return (ms) => {
    now += ms;
  };
}
