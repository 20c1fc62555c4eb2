import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { servedAirportDetails } from '#shared/flights/airport-data.ts';
import { localDateAt, localTimeAt } from '#shared/flights/local-time.ts';
import { ZONE_WINDOW, zoneOffsetsByZone } from '#shared/flights/zone-offsets.ts';

const zones = [
  'Europe/London',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Pacific/Chatham',
  'America/St_Johns',
];
const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The local date Intl gives (one formatter per zone: building one costs more than the call under test). */
const direct = (timeZone: string, epochMillis: number) => {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZone,
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(epochMillis);
};

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

  it('changes date at local midnight, in zones offset by 30 and 45 minutes', () => {
    for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham']) {
      // Walk a day, probing around every UTC minute boundary.
      const start = Date.UTC(2026, 10, 23);
      for (let at = start; at < start + 86_400_000; at += 59_000)
        for (const step of [0, 999, 1000, 58_999])
          expect(localDateAt(zone, at + step)).toBe(direct(zone, at + step));
    }
  });
});

describe('the zone-offset table', () => {
  const served = Object.keys(zoneOffsetsByZone);
  const intlTime = (timeZone: string, epochMillis: number) =>
    new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    }).format(epochMillis);

  it('gives every served zone the date and time Intl gives, at any instant of its window', () => {
    const instant = fc.integer({ min: ZONE_WINDOW.from, max: ZONE_WINDOW.to - 1 });
    fc.assert(
      fc.property(fc.constantFrom(...served), instant, (zone, at) => {
        expect(localDateAt(zone, at)).toBe(direct(zone, at));
        expect(localTimeAt(zone, at)).toBe(intlTime(zone, at));
      }),
      { numRuns: 3000 },
    );
  });

  it('changes offset exactly when Intl does: a minute before and at every change of every served zone', () => {
    let changes = 0;
    for (const zone of served) {
      for (const change of (zoneOffsetsByZone[zone] ?? '').split(' ').slice(1)) {
        const at = ZONE_WINDOW.from + Number.parseInt(change.split('=')[0] ?? '', 36) * 60_000;
        for (const t of [at - 60_000, at - 1, at, at + 59_999])
          expect(localTimeAt(zone, t)).toBe(intlTime(zone, t));
        changes += 1;
      }
    }
    expect(changes).toBeGreaterThan(400);
  });

  it('matches the running Node’s time-zone data (run `npm run airports` after a Node update that changes it)', async () => {
    const { zoneOffsetTable } = await import('../../../infra/data/zone-offsets.ts');

    expect(zoneOffsetsByZone).toEqual(zoneOffsetTable(served));
    expect(served.sort()).toEqual(
      [...new Set(Object.values(servedAirportDetails).map((a) => a.timeZone))].sort(),
    );
  });

  it('covers at least two more years from today (move ZONE_WINDOW in infra/data/zone-offsets.ts on before then)', () => {
    expect(ZONE_WINDOW.to).toBeGreaterThan(Date.now() + 2 * 366 * 86_400_000);
    expect(ZONE_WINDOW.from).toBeLessThan(Date.now() - 366 * 86_400_000);
  });

  it('reads zones it does not hold, and instants outside its window, through Intl', () => {
    for (const [zone, at] of [
      ['Pacific/Tahiti', Date.UTC(2026, 5, 1, 12)],
      ['Europe/London', Date.UTC(2040, 6, 1, 12)],
      ['America/New_York', Date.UTC(2010, 0, 1, 3)],
    ] as const) {
      expect(localDateAt(zone, at)).toBe(direct(zone, at));
      expect(localTimeAt(zone, at)).toBe(intlTime(zone, at));
    }
  });
});
