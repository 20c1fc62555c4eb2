import { networkRoutes } from '#shared/flights/network.ts';

/** Every airport the built-in network serves (either end of a route), sorted: for tests that walk them all. */
export function servedAirports(): string[] {
  return [...new Set(networkRoutes().flatMap((route) => [route.a, route.b]))].sort();
}
