import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aircraftFor, TRAVEL_CLASSES } from '#shared/flights/cabins.ts';
import { type CabinLayout, type SeatLayout, seatLayout } from '#shared/flights/seat-layouts.ts';
import { type MapCabin, seatMap } from '#shared/flights/seat-maps.ts';

/** The documented rows of a cabin, counted afresh: first to last, the skipped numbers left out. */
const documentedRows = (cabin: CabinLayout, skipped: readonly number[]) =>
  Array.from({ length: cabin.lastRow - cabin.firstRow + 1 }, (_, i) => cabin.firstRow + i).filter(
    (row) => !skipped.includes(row),
  );

type Seat = Extract<MapCabin['rows'][number]['sections'][number][number], { type: 'seat' }>;
const isSeat = (e: { type: string }): e is Seat => e.type === 'seat';
const mapSeats = (cabins: readonly MapCabin[]): Seat[] =>
  cabins.flatMap((c) => c.rows.flatMap((r) => r.sections.flat().filter(isSeat)));

/** Every aircraft the schedule flies, one per distance band (cabins.ts aircraftFor). */
const scheduledAircraft = [0, 1500, 4000, 9000].map(aircraftFor);
const seatLayouts = scheduledAircraft.flatMap((a): SeatLayout[] => {
  const layout = seatLayout(a.type);
  return layout ? [layout] : [];
});

describe('fn: seatMap', () => {
  it('has a layout for every aircraft the schedule flies, with its seats per cabin', () => {
    for (const aircraft of scheduledAircraft) {
      const layout = seatLayout(aircraft.type);
      expect(layout, aircraft.type).toBeDefined();
      if (!layout) continue;
      const drawn = seatMap({ layout, travelClass: 'ECONOMY', distanceKm: 1000, taken: new Set() });
      const perCabin = Object.fromEntries(
        drawn.map((c) => [c.cabin, c.rows.flatMap((r) => r.sections.flat()).filter(isSeat).length]),
      );
      expect(perCabin, aircraft.type).toEqual(aircraft.seats);
    }
  });

  it('holds every map to its layout: unique designators, rows as documented, exits and skipped rows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...seatLayouts),
        fc.constantFrom(...TRAVEL_CLASSES),
        fc.integer({ min: 100, max: 16_000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 60 }),
        (layout, travelClass, distanceKm, picks) => {
          const all = mapSeats(seatMap({ layout, travelClass, distanceKm, taken: new Set() }));
          const taken = new Set(picks.map((i) => all[i % all.length]?.designator ?? ''));
          const drawn: MapCabin[] = seatMap({ layout, travelClass, distanceKm, taken });
          const seats = mapSeats(drawn);
          expect(new Set(seats.map((s) => s.designator)).size).toBe(seats.length);
          expect(drawn.map((c) => c.cabin)).toEqual(layout.cabins.map((c) => c.cabin));
          layout.cabins.forEach((cabin, i) => {
            const rows = drawn[i]?.rows ?? [];
            expect(rows.map((r) => r.number)).toEqual(documentedRows(cabin, layout.skippedRows));
            for (const row of rows) {
              expect(layout.skippedRows).not.toContain(row.number);
              const exit = cabin.exitRows.includes(row.number);
              const ends = [row.sections[0]?.[0], row.sections.at(-1)?.at(-1)];
              expect(ends.every((e) => e?.type === 'exit')).toBe(exit);
              expect(row.sections.length).toBe(cabin.letters.split(' ').length);
              for (const seat of row.sections.flat().filter(isSeat)) {
                expect(seat.designator).toMatch(
                  new RegExp(`^${row.number}[${cabin.letters.replace(/ /g, '')}]$`),
                );
                expect(seat.features.includes('exit_row')).toBe(exit);
                const open = cabin.cabin === travelClass && !taken.has(seat.designator);
                expect(seat.available).toBe(open);
                expect(seat.price === null).toBe(!open);
              }
            }
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('names window and aisle seats from the row across, and skips row 13', () => {
    const layout = seatLayout('Airbus A320neo');
    if (!layout) throw new Error('no A320neo layout');
    const seats = mapSeats(
      seatMap({ layout, travelClass: 'ECONOMY', distanceKm: 900, taken: new Set(['12A']) }),
    );
    const seat = (d: string) => seats.find((s) => s.designator === d);
    expect(seat('14A')?.features).toEqual(['window']);
    expect(seat('14C')?.features).toEqual(['aisle']);
    expect(seat('14B')?.features).toEqual([]);
    expect(seat('12F')?.features).toEqual(['window', 'exit_row', 'extra_legroom']);
    expect(seat('13A')).toBeUndefined();
    expect(seat('12A')).toMatchObject({ available: false, price: null });
    expect(seat('14B')?.price).toBe(800);
    expect(seat('12F')?.price).toBe(2000);
    expect(seat('2A')).toMatchObject({ available: false, price: null });
  });
});
