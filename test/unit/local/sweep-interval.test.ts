import { describe, expect, it } from 'vitest';
import { localSweepEveryMs } from '../../../infra/local/dev-server.ts';

describe('npm start: the local sweep period', () => {
  it('runs every 15 s unless SWEEP_INTERVAL_SECONDS says otherwise', () => {
    expect(localSweepEveryMs(undefined)).toBe(15_000);
    expect(localSweepEveryMs('')).toBe(15_000);
    expect(localSweepEveryMs('0.5')).toBe(500);
    expect(localSweepEveryMs('3600')).toBe(3_600_000);
  });

  it.each(['abc', '0', '0.05', '-1', '3601', 'Infinity', '1e9'])(
    'refuses %s rather than fire every millisecond',
    (value) => {
      expect(() => localSweepEveryMs(value)).toThrow(
        'SWEEP_INTERVAL_SECONDS must be a number of seconds from 0.1 to 3600',
      );
    },
  );
});
