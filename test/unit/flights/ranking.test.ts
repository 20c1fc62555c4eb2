import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byCodeUnits } from '#shared/flights/ranking.ts';

describe('byCodeUnits', () => {
  it('orders flight-number lists exactly as localeCompare does, without building ICU’s collator', () => {
    const flightNumber = fc.stringMatching(/^[A-Z0-9]{2}[0-9]{1,4}$/);
    const numbers = fc.array(flightNumber, { minLength: 1, maxLength: 2 }).map((list) => list.join(' '));
    fc.assert(
      fc.property(numbers, numbers, (a, b) => {
        expect(byCodeUnits(a, b)).toBe(Math.sign(a.localeCompare(b)));
      }),
      { numRuns: 2000 },
    );
  });
});
