import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRAVEL_CLASSES } from '#shared/flights/cabins.ts';
import { fareBuckets, quoteBucket } from '#shared/flights/fares.ts';
import { addDays, localDateAt, localTimeAt } from '#shared/flights/local-time.ts';
import { flightsOn } from '#shared/flights/schedule.ts';
import { newPnr } from '#shared/supply/network-pnr.ts';
import { legsFrom, servedAirports } from '#test/helpers/network.ts';

describe('property: fares', () => {
  it('never fall as seats sell, for any cabin, capacity, base fare and party', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRAVEL_CLASSES),
        fc.integer({ min: 4, max: 400 }),
        fc.integer({ min: 1, max: 20_000 }).map((euros) => euros * 100),
        fc.integer({ min: 1, max: 9 }),
        fc.nat(),
        fc.nat(),
        (travelClass, capacity, base, seats, a, b) => {
          const buckets = fareBuckets(travelClass, capacity, base);
          const [fewer, more] = [a % (capacity + 1), b % (capacity + 1)].sort((x, y) => x - y) as [
            number,
            number,
          ];
          const before = quoteBucket(buckets, fewer, seats);
          const after = quoteBucket(buckets, more, seats);
          if (after) expect(after.fare).toBeGreaterThanOrEqual(before?.fare ?? 0);
          if (!before) expect(after).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('property: schedule', () => {
  it('keeps times consistent in every time zone on every day of 2027', { timeout: 60_000 }, () => {
    const checked = new Set<string>();
    for (const origin of servedAirports()) {
      const [leg] = legsFrom(origin);
      if (!leg) continue;
      checked.add(leg.origin.timeZone);
      for (let day = 0; day < 365; day++) {
        const date = addDays('2027-01-01', day);
        const flights = flightsOn(leg, date);
        for (const flight of flights) {
          // Leaves on the requested local date, between 06:00 and 23:00, and lands block time later.
          expect(localDateAt(leg.origin.timeZone, flight.departureAt), `${flight.flightNumber} ${date}`).toBe(
            date,
          );
          const local = localTimeAt(leg.origin.timeZone, flight.departureAt);
          expect(local >= '06:00' && local <= '23:00', `${flight.flightNumber} ${date} ${local}`).toBe(true);
          expect(flight.arrivalAt - flight.departureAt).toBe(leg.blockMinutes * 60_000);
        }
        // Same flights, same order, every day.
        expect(flights.map((f) => f.flightNumber)).toEqual(leg.flights.map((f) => f.flightNumber));
      }
    }
    expect(checked.size).toBeGreaterThanOrEqual(40);
  });
});

describe('property: PNRs', () => {
  it('are six upper-case letters, colliding in 10^5 draws about as often as uniform draws do', () => {
    const drawn = new Set<string>();
    let collisions = 0;
    for (let i = 0; i < 100_000; i++) {
      const pnr = newPnr();
      expect(pnr).toMatch(/^[A-Z]{6}$/);
      if (drawn.has(pnr)) collisions += 1;
      drawn.add(pnr);
    }
    // 26^6 = 308,915,776 codes: about 16 collisions are expected in 10^5 draws. Booking takes a drawn
    // PNR only if no booking holds it, and draws again otherwise (integration/bookings/pnr-collision).
    expect(collisions).toBeLessThan(60);
  });

  it('use every letter in every position (no bias from the CSPRNG mapping)', () => {
    const seen = Array.from({ length: 6 }, () => new Set<string>());
    for (let i = 0; i < 5000; i++) {
      for (const [position, letter] of [...newPnr()].entries()) seen[position]?.add(letter);
    }
    for (const letters of seen) expect(letters.size).toBe(26);
  });
});
