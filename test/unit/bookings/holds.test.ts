import { describe, expect, it } from 'vitest';
import { holdDeadline } from '#shared/bookings/holds.ts';

const NOW = Date.parse('2026-12-01T09:00:00.500Z');
const HOUR = 3600_000;

describe('holdDeadline', () => {
  it('lasts 24 hours, in whole seconds, when the flight leaves later than 72 hours from now', () => {
    expect(holdDeadline(NOW + 10 * 24 * HOUR, NOW)).toBe(Date.parse('2026-12-02T09:00:00Z'));
  });

  it('ends 48 hours before the first departure when that comes sooner', () => {
    const departure = Date.parse('2026-12-04T06:00:00Z');
    expect(holdDeadline(departure, NOW)).toBe(Date.parse('2026-12-02T06:00:00Z'));
  });

  it('is not offered when less than an hour would be left', () => {
    expect(() => holdDeadline(NOW + 48 * HOUR + 59 * 60_000, NOW)).toThrow(
      expect.objectContaining({ code: 'HOLD_NOT_AVAILABLE' }),
    );
    expect(() => holdDeadline(NOW + HOUR, NOW)).toThrow(
      expect.objectContaining({ code: 'HOLD_NOT_AVAILABLE' }),
    );
    expect(holdDeadline(NOW + 49 * HOUR + 1000, NOW)).toBe(Date.parse('2026-12-01T10:00:01Z'));
  });

  it('takes a configured length, fractions of a minute included, still within the 48-hour rule', () => {
    expect(holdDeadline(NOW + 10 * 24 * HOUR, NOW, 1)).toBe(Date.parse('2026-12-01T09:01:00Z'));
    expect(holdDeadline(NOW + 10 * 24 * HOUR, NOW, 0.1)).toBe(Date.parse('2026-12-01T09:00:06Z'));
    expect(() => holdDeadline(NOW + 48 * HOUR, NOW, 1)).toThrow(
      expect.objectContaining({ code: 'HOLD_NOT_AVAILABLE' }),
    );
  });
});
