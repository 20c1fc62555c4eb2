import { describe, expect, it } from 'vitest';
import { localDateAt, localTimeAt } from '#shared/flights/local-time.ts';
import { flightsOn, legBetween, scheduledFlight } from '#shared/flights/schedule.ts';
import { legsFrom, servedAirports } from '#test/helpers/network.ts';

const leg = (origin: string, destination: string) => {
  const found = legBetween(origin, destination);
  if (!found) throw new Error(`no leg ${origin}-${destination}`);
  return found;
};
/** The wall-clock reading in `timeZone` at `epoch`, as if it were UTC (for differences). */
const wallClock = (epoch: number, timeZone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(epoch)
      .map((p) => [p.type, p.value]),
  );
  return Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
};
const hhmm = (epoch: number) => new Date(epoch).toISOString().slice(11, 16);
const localTime = (epoch: number, timeZone: string) => localTimeAt(timeZone, epoch);

describe('schedule', () => {
  it('is deterministic: the same flights with the same numbers every day, computed twice alike', () => {
    const monday = flightsOn(leg('LHR', 'JFK'), '2026-12-07');
    const again = flightsOn(leg('LHR', 'JFK'), '2026-12-07');
    const tuesday = flightsOn(leg('LHR', 'JFK'), '2026-12-08');

    expect(again).toEqual(monday);
    expect(tuesday.map((f) => f.flightNumber)).toEqual(monday.map((f) => f.flightNumber));
    expect(tuesday.map((f) => f.departureAt - 86_400_000)).toEqual(monday.map((f) => f.departureAt));
    expect(monday.map((f) => f.carrier.code).sort()).toEqual([
      'AA',
      'AA',
      'AA',
      'BA',
      'BA',
      'BA',
      'BA',
      'BA',
      'BA',
      'DL',
      'DL',
      'VS',
      'VS',
      'VS',
    ]);
  });

  it('departs between 06:00 and 23:00 local time at every origin', () => {
    for (const [o, d] of [
      ['LHR', 'JFK'],
      ['SYD', 'MEL'],
      ['LAX', 'SFO'],
      ['DXB', 'LHR'],
      ['AKL', 'LAX'],
    ] as const) {
      const l = leg(o, d);
      for (const flight of flightsOn(l, '2026-12-01')) {
        const local = localTime(flight.departureAt, l.origin.timeZone);
        expect(local >= '06:00' && local <= '23:00', `${flight.flightNumber} ${local}`).toBe(true);
        expect(localDateAt(l.origin.timeZone, flight.departureAt)).toBe('2026-12-01');
      }
    }
  });

  it('gives flight numbers that are unique and find their flight again', () => {
    const numbers = new Set<string>();
    for (const flight of flightsOn(leg('LHR', 'JFK'), '2026-12-01')) {
      expect(numbers.has(flight.flightNumber)).toBe(false);
      numbers.add(flight.flightNumber);
      expect(flight.flightNumber).toMatch(/^[A-Z0-9]{2}\d{1,4}$/);
      expect(scheduledFlight(flight.flightNumber, '2026-12-01')).toEqual(flight);
    }
    expect(scheduledFlight('ZZ999', '2026-12-01')).toBeUndefined();
  });

  it('finds every flight of the network by its number, in that spelling only', () => {
    let checked = 0;
    for (const origin of servedAirports())
      for (const leg of legsFrom(origin))
        for (const flight of flightsOn(leg, '2026-03-29')) {
          expect(scheduledFlight(flight.flightNumber, '2026-03-29')).toEqual(flight);
          const [code, number] = [flight.flightNumber.slice(0, 2), flight.flightNumber.slice(2)];
          for (const other of [
            `${code}0${number}`,
            `${code}${number}.0`,
            `${code} ${number}`,
            `${code}${number} `,
          ])
            expect(scheduledFlight(other, '2026-03-29')).toBeUndefined();
          checked += 1;
        }
    expect(checked).toBeGreaterThan(2000);
    for (const wrong of ['BA', 'BA-1', 'BA100', 'BA1e3', 'BA99999', 'ba117', ''])
      expect(scheduledFlight(wrong, '2026-03-29')).toBeUndefined();
  });

  it('computes block time as 45 minutes plus distance at 850 km/h, to the next 5 minutes', () => {
    const block = (km: number) => Math.ceil((45 + (km / 850) * 60) / 5) * 5;
    for (const origin of servedAirports())
      for (const built of legsFrom(origin)) expect(built.blockMinutes).toBe(block(built.distanceKm));
    const lhrJfk = leg('LHR', 'JFK');
    expect(lhrJfk.distanceKm).toBeGreaterThan(5500);
    expect(lhrJfk.distanceKm).toBeLessThan(5600);
    for (const flight of flightsOn(lhrJfk, '2026-12-01')) {
      expect(flight.arrivalAt - flight.departureAt).toBe(lhrJfk.blockMinutes * 60_000);
    }
  });

  it('sizes aircraft and cabins by distance', () => {
    expect(Object.keys(leg('LHR', 'CDG').aircraft.seats).sort()).toEqual(['BUSINESS', 'ECONOMY']);
    expect(Object.keys(leg('LHR', 'JFK').aircraft.seats).sort()).toEqual([
      'BUSINESS',
      'ECONOMY',
      'FIRST',
      'PREMIUM_ECONOMY',
    ]);
    expect(leg('DXB', 'AKL').aircraft.type).toBe('Boeing 777-300ER');
  });

  it('follows the European DST switch: same local time, one hour earlier in UTC', () => {
    // Europe switches to summer time on Sunday 28 March 2027.
    const before = flightsOn(leg('LHR', 'JFK'), '2027-03-27')[0];
    const after = flightsOn(leg('LHR', 'JFK'), '2027-03-28')[0];

    expect(before?.flightNumber).toBe(after?.flightNumber);
    expect(localTime(before?.departureAt ?? 0, 'Europe/London')).toBe(
      localTime(after?.departureAt ?? 0, 'Europe/London'),
    );
    expect((after?.departureAt ?? 0) - (before?.departureAt ?? 0)).toBe(23 * 3_600_000);
    expect(hhmm(after?.departureAt ?? 0)).not.toBe(hhmm(before?.departureAt ?? 0));
  });

  it('follows the US DST switch two weeks earlier, and not the European one', () => {
    // The US switches on Sunday 14 March 2027.
    const jfk = leg('JFK', 'LHR');
    const [sat] = flightsOn(jfk, '2027-03-13');
    const [sun] = flightsOn(jfk, '2027-03-14');
    const [lhrSat] = flightsOn(leg('LHR', 'JFK'), '2027-03-13');
    const [lhrSun] = flightsOn(leg('LHR', 'JFK'), '2027-03-14');

    expect((sun?.departureAt ?? 0) - (sat?.departureAt ?? 0)).toBe(23 * 3_600_000);
    expect((lhrSun?.departureAt ?? 0) - (lhrSat?.departureAt ?? 0)).toBe(24 * 3_600_000);
  });

  it('handles the southern hemisphere switch (Sydney leaves summer time on 4 April 2027)', () => {
    const [sat] = flightsOn(leg('SYD', 'MEL'), '2027-04-03');
    const [sun] = flightsOn(leg('SYD', 'MEL'), '2027-04-04');

    expect((sun?.departureAt ?? 0) - (sat?.departureAt ?? 0)).toBe(25 * 3_600_000);
  });

  it('crosses the date line eastwards: from Auckland you land in Los Angeles before you left, by the clock', () => {
    const l = leg('AKL', 'LAX');
    for (const flight of flightsOn(l, '2026-12-02')) {
      // In December Auckland is UTC+13 and Los Angeles UTC-8: 21 hours apart.
      const left = wallClock(flight.departureAt, 'Pacific/Auckland');
      const landed = wallClock(flight.arrivalAt, 'America/Los_Angeles');
      expect(landed - left).toBe((l.blockMinutes - 21 * 60) * 60_000);
      expect(landed).toBeLessThan(left);
    }
    // Leaving Auckland in the morning of the 2nd is still the 1st in UTC.
    const [first] = flightsOn(leg('AKL', 'SYD'), '2026-12-02');
    expect(localTime(first?.departureAt ?? 0, 'Pacific/Auckland') < '13:00').toBe(true);
    expect(new Date(first?.departureAt ?? 0).toISOString().slice(0, 10)).toBe('2026-12-01');
  });

  it('crosses the date line westwards: from Los Angeles on the 1st an afternoon flight lands in Sydney on the 3rd', () => {
    const l = leg('LAX', 'SYD');
    const arrivals = flightsOn(l, '2026-12-01').map((flight) => {
      // Los Angeles is UTC-8, Sydney UTC+11 in December: 19 hours apart.
      const landed = wallClock(flight.arrivalAt, 'Australia/Sydney');
      expect(landed - wallClock(flight.departureAt, 'America/Los_Angeles')).toBe(
        (l.blockMinutes + 19 * 60) * 60_000,
      );
      return localDateAt('Australia/Sydney', flight.arrivalAt);
    });
    expect(arrivals).toContain('2026-12-03');
  });

  it('finds every flight number from its own route alone, the same flight as the full index', () => {
    let checked = 0;
    for (const origin of servedAirports()) {
      for (const indexed of legsFrom(origin)) {
        for (const { flightNumber } of indexed.flights) {
          expect(scheduledFlight(flightNumber, '2026-12-07')).toEqual(
            flightsOn(indexed, '2026-12-07').find((f) => f.flightNumber === flightNumber),
          );
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
    for (const unknown of ['BA100', 'BA99999', 'XX101', 'BA0117', 'BA117 ', 'ba117', 'B', '', 'Q:101']) {
      expect(scheduledFlight(unknown, '2026-12-07'), unknown).toBeUndefined();
    }
  });
});
