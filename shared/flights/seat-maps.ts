import { LONG_HAUL_KM, type TravelClass } from './cabins.ts';
import { type CabinLayout, cabinRows, rowLetters, type SeatLayout } from './seat-layouts.ts';

/**
 * Seat maps (docs/API.md §4.10) drawn from the cabin layouts (seat-layouts.ts), pure: the seats a
 * flight-date has sold are given. Prices are in minor units here; the view turns them into money.
 */

export type SeatFeature = 'window' | 'aisle' | 'exit_row' | 'extra_legroom';

interface SeatElement {
  readonly type: 'seat';
  readonly designator: string;
  readonly available: boolean;
  /** Minor units for one passenger on this segment; null when the seat is not for sale. */
  readonly price: number | null;
  readonly features: readonly SeatFeature[];
}

type MapElement = SeatElement | { readonly type: 'empty' | 'exit' | 'lavatory' | 'galley' };

interface MapRow {
  readonly number: number;
  readonly sections: readonly (readonly MapElement[])[];
}

export interface MapCabin {
  readonly cabin: TravelClass;
  readonly rows: readonly MapRow[];
}

/** Short-haul below this distance; medium below LONG_HAUL_KM; long-haul beyond. */
const SHORT_HAUL_KM = 1500;

/** A route's length band: 0 short-haul, 1 medium, 2 long-haul. */
export function distanceBand(distanceKm: number): 0 | 1 | 2 {
  if (distanceKm < SHORT_HAUL_KM) return 0;
  return distanceKm < LONG_HAUL_KM ? 1 : 2;
}

/**
 * The seat price table, whole euros per passenger and segment by band (short, medium, long-haul):
 * a standard seat, and one with extra legroom (exit rows and bulkheads). BUSINESS and FIRST seats are
 * included in the fare (0).
 */
const seatPrices: Record<TravelClass, { standard: readonly number[]; extra: readonly number[] }> = {
  ECONOMY: { standard: [8, 12, 20], extra: [20, 30, 50] },
  PREMIUM_ECONOMY: { standard: [10, 15, 20], extra: [25, 35, 45] },
  BUSINESS: { standard: [0, 0, 0], extra: [0, 0, 0] },
  FIRST: { standard: [0, 0, 0], extra: [0, 0, 0] },
};

/** What a seat map is drawn for: the aircraft, the offer's cabin, the route and the seats sold. */
interface SeatMapInput {
  readonly layout: SeatLayout;
  /** Only the offer's cabin is for sale; other cabins' seats are drawn unavailable. */
  readonly travelClass: TravelClass;
  readonly distanceKm: number;
  /** Designators sold on this flight-date. */
  readonly taken: ReadonlySet<string>;
}

/** The seat map of one segment, every cabin front to back. */
export function seatMap(input: SeatMapInput): MapCabin[] {
  return input.layout.cabins.map((cabin) => ({
    cabin: cabin.cabin,
    rows: cabinRows(input.layout, cabin).map((row) => mapRow(input, cabin, row)),
  }));
}

function mapRow(input: SeatMapInput, cabin: CabinLayout, row: number): MapRow {
  const exit = cabin.exitRows.includes(row);
  const full = cabin.letters;
  const letters = rowLetters(cabin, row);
  const sections: MapElement[][] = [[]];
  for (let i = 0; i < letters.length; i++) {
    const letter = letters[i] ?? ' ';
    if (letter === ' ') {
      sections.push([]);
      continue;
    }
    const section = sections[sections.length - 1] ?? [];
    if (letter === '.') section.push({ type: 'empty' });
    else section.push(seatElement(input, cabin, `${row}${letter}`, seatFeatures(full, i, row, cabin)));
  }
  if (exit) {
    sections[0]?.unshift({ type: 'exit' });
    sections[sections.length - 1]?.push({ type: 'exit' });
  }
  return { number: row, sections };
}

/** A seat's features from its place across the full row (`letters`) and its row. */
function seatFeatures(letters: string, i: number, row: number, cabin: CabinLayout): SeatFeature[] {
  const features: SeatFeature[] = [];
  if (i === 0 || i === letters.length - 1) features.push('window');
  if (letters[i - 1] === ' ' || letters[i + 1] === ' ') features.push('aisle');
  const exit = cabin.exitRows.includes(row);
  if (exit) features.push('exit_row');
  if (exit || cabin.extraLegroomRows.includes(row)) features.push('extra_legroom');
  return features;
}

function seatElement(
  input: SeatMapInput,
  cabin: CabinLayout,
  designator: string,
  features: SeatFeature[],
): SeatElement {
  const available = cabin.cabin === input.travelClass && !input.taken.has(designator);
  const prices = seatPrices[cabin.cabin];
  const euros = (features.includes('extra_legroom') ? prices.extra : prices.standard)[
    distanceBand(input.distanceKm)
  ];
  return { type: 'seat', designator, available, price: available ? (euros ?? 0) * 100 : null, features };
}
