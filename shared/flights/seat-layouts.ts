import type { TravelClass } from './cabins.ts';

/**
 * The built-in network's cabin layouts, one per aircraft type of the schedule (cabins.ts `aircraftFor`),
 * as data (docs/flights.md, "Cabin layouts"). Each cabin's seats add up to the aircraft's seats in that
 * cabin, which the inventory counts (a unit test holds the two together).
 */

/** One cabin of a layout. */
export interface CabinLayout {
  readonly cabin: TravelClass;
  /** The seat letters across, each space an aisle: `ABC DEF`. */
  readonly letters: string;
  /** First and last row numbers, inclusive; the aircraft's skipped numbers are not rows. */
  readonly firstRow: number;
  readonly lastRow: number;
  /** Rows at an emergency exit: their seats have `exit_row` and `extra_legroom`. */
  readonly exitRows: readonly number[];
  /** Other rows with extra legroom (bulkheads). */
  readonly extraLegroomRows: readonly number[];
  /** Rows with fewer seats: the letters they have, `.` where a seat of `letters` is missing. */
  readonly shortRows?: Readonly<Record<number, string>>;
}

/** An aircraft type's layout. */
export interface SeatLayout {
  readonly aircraft: string;
  /** Row numbers the airline never uses (no row 13). */
  readonly skippedRows: readonly number[];
  /** Front to back. */
  readonly cabins: readonly CabinLayout[];
}

const NO_ROW_13 = [13];

const seatLayouts: readonly SeatLayout[] = [
  {
    aircraft: 'Airbus A320neo',
    skippedRows: NO_ROW_13,
    cabins: [
      { cabin: 'BUSINESS', letters: 'AC DF', firstRow: 1, lastRow: 3, exitRows: [], extraLegroomRows: [] },
      {
        cabin: 'ECONOMY',
        letters: 'ABC DEF',
        firstRow: 4,
        lastRow: 29,
        exitRows: [11, 12],
        extraLegroomRows: [4],
      },
    ],
  },
  {
    aircraft: 'Airbus A321neo',
    skippedRows: NO_ROW_13,
    cabins: [
      { cabin: 'BUSINESS', letters: 'AC DF', firstRow: 1, lastRow: 5, exitRows: [], extraLegroomRows: [] },
      {
        cabin: 'ECONOMY',
        letters: 'ABC DEF',
        firstRow: 6,
        lastRow: 35,
        exitRows: [20, 26],
        extraLegroomRows: [6],
        // The door exits' rows lose their window seats to the slides.
        shortRows: { 20: '.BC DE.', 26: '.BC DE.' },
      },
    ],
  },
  {
    aircraft: 'Boeing 787-9',
    skippedRows: NO_ROW_13,
    cabins: [
      { cabin: 'FIRST', letters: 'A DG K', firstRow: 1, lastRow: 2, exitRows: [], extraLegroomRows: [] },
      { cabin: 'BUSINESS', letters: 'AC EF HK', firstRow: 3, lastRow: 9, exitRows: [], extraLegroomRows: [] },
      {
        cabin: 'PREMIUM_ECONOMY',
        letters: 'AC DEF HK',
        firstRow: 10,
        lastRow: 14,
        exitRows: [],
        extraLegroomRows: [10],
      },
      {
        cabin: 'ECONOMY',
        letters: 'ABC DEF HJK',
        firstRow: 15,
        lastRow: 38,
        exitRows: [28],
        extraLegroomRows: [15],
        // The fuselage narrows: the last three rows are 2-3-2.
        shortRows: { 36: 'A.C DEF H.K', 37: 'A.C DEF H.K', 38: 'A.C DEF H.K' },
      },
    ],
  },
  {
    aircraft: 'Boeing 777-300ER',
    skippedRows: NO_ROW_13,
    cabins: [
      { cabin: 'FIRST', letters: 'A DG K', firstRow: 1, lastRow: 2, exitRows: [], extraLegroomRows: [] },
      { cabin: 'BUSINESS', letters: 'A DG K', firstRow: 3, lastRow: 16, exitRows: [], extraLegroomRows: [] },
      {
        cabin: 'PREMIUM_ECONOMY',
        letters: 'AC DEFG JK',
        firstRow: 17,
        lastRow: 21,
        exitRows: [],
        extraLegroomRows: [17],
      },
      {
        cabin: 'ECONOMY',
        letters: 'ABC DEFG HJK',
        firstRow: 22,
        lastRow: 47,
        exitRows: [34],
        extraLegroomRows: [22],
      },
    ],
  },
];

/** The layout of an aircraft type; undefined for a type without one. */
export function seatLayout(aircraft: string): SeatLayout | undefined {
  return seatLayouts.find((layout) => layout.aircraft === aircraft);
}

/** The row numbers of a cabin, front to back, without the aircraft's skipped numbers. */
export function cabinRows(layout: SeatLayout, cabin: CabinLayout): number[] {
  const rows: number[] = [];
  for (let row = cabin.firstRow; row <= cabin.lastRow; row++)
    if (!layout.skippedRows.includes(row)) rows.push(row);
  return rows;
}

/** The letters a row has, `.` for a missing seat, spaces for aisles. */
export const rowLetters = (cabin: CabinLayout, row: number): string =>
  cabin.shortRows?.[row] ?? cabin.letters;
