import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateAt } from '#shared/flights/local-time.ts';

const zones = [
  'Europe/London',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Pacific/Chatham',
  'America/St_Johns',
];
const direct = (timeZone: string, epochMillis: number) =>
  new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(
    epochMillis,
  );

describe('localDateAt', () => {
  it('gives the date Intl gives, for any instant and zone, whatever was asked before', () => {
    const instant = fc.integer({ min: Date.UTC(1972, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...zones), instant), { minLength: 1, maxLength: 20 }),
        (asks) => {
          for (const [zone, at] of asks) expect(localDateAt(zone, at)).toBe(direct(zone, at));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('changes date at local midnight within one UTC minute, in zones offset by 30 and 45 minutes', () => {
    for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham']) {
      // Walk a day second by second around every UTC minute boundary: the memo must never lag.
      const start = Date.UTC(2026, 10, 23);
      for (let at = start; at < start + 86_400_000; at += 59_000)
        for (const step of [0, 999, 1000, 58_999])
          expect(localDateAt(zone, at + step)).toBe(direct(zone, at + step));
    }
  });
});
