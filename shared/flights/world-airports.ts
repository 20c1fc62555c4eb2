import { airportCodesByZone } from './airport-data.ts';
import type { SellableAirport } from './airport-search.ts';
import { worldAirportsByCountry } from './world-airport-data.ts';

/**
 * Every airport with an IATA code in the bundled Open Travel Data snapshot (world-airport-data.ts, with
 * zones from airport-data.ts): what a Duffel stage's airport search sells from. Only a Duffel stage's
 * bundle carries it (shared/supply/context.ts).
 */
export function worldAirports(): SellableAirport[] {
  const zoneOf = new Map<string, string>();
  for (const [zone, codes] of Object.entries(airportCodesByZone))
    for (let i = 0; i < codes.length; i += 3) zoneOf.set(codes.slice(i, i + 3), zone);
  const airports: SellableAirport[] = [];
  for (const [country, entries] of Object.entries(worldAirportsByCountry)) {
    for (const entry of entries.split(';')) {
      const [code = '', name = '', city = ''] = entry.split('|');
      const timeZone = zoneOf.get(code);
      if (timeZone) airports.push({ code, name, city, country, time_zone: timeZone });
    }
  }
  return airports;
}
