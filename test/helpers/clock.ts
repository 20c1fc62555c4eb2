import { vi } from 'vitest';
import { context } from '#shared/context.ts';

/**
 * Freezes the functions' business clock at `start` (1 Dec 2026, 09:00 UTC by default) and returns a
 * function that moves it forward. Undone by `vi.restoreAllMocks()`.
 */
export function freezeClock(start = Date.UTC(2026, 11, 1, 9, 0, 0)): (ms: number) => void {
  let now = start;
  vi.spyOn(context.clock, 'now').mockImplementation(() => now);
  return (ms) => {
    now += ms;
  };
}
