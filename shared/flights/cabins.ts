/** Travel classes (docs/API.md §4.1) and the one-letter cabin codes inventory items use. */
export const TRAVEL_CLASSES = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'] as const;
export type TravelClass = (typeof TRAVEL_CLASSES)[number];

export const cabinCode: Record<TravelClass, 'Y' | 'W' | 'J' | 'F'> = {
  ECONOMY: 'Y',
  PREMIUM_ECONOMY: 'W',
  BUSINESS: 'J',
  FIRST: 'F',
};

export interface Aircraft {
  readonly type: string;
  /** Seats per cabin; a cabin the aircraft lacks is absent. */
  readonly seats: Readonly<Partial<Record<TravelClass, number>>>;
}

/** At and beyond this distance a flight is long-haul: four cabins instead of two. */
export const LONG_HAUL_KM = 4000;

const aircraft = {
  regional: { type: 'Airbus A320neo', seats: { BUSINESS: 12, ECONOMY: 150 } },
  medium: { type: 'Airbus A321neo', seats: { BUSINESS: 20, ECONOMY: 170 } },
  long: { type: 'Boeing 787-9', seats: { FIRST: 8, BUSINESS: 42, PREMIUM_ECONOMY: 28, ECONOMY: 210 } },
  ultraLong: {
    type: 'Boeing 777-300ER',
    seats: { FIRST: 8, BUSINESS: 52, PREMIUM_ECONOMY: 40, ECONOMY: 260 },
  },
} satisfies Record<string, Aircraft>;

/** The aircraft a route gets, by its great-circle distance. */
export function aircraftFor(distanceKm: number): Aircraft {
  if (distanceKm < 1500) return aircraft.regional;
  if (distanceKm < LONG_HAUL_KM) return aircraft.medium;
  if (distanceKm < 9000) return aircraft.long;
  return aircraft.ultraLong;
}
