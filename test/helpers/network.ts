import { networkRoutes } from '#shared/flights/network.ts';
import { destinationsFrom, legBetween } from '#shared/flights/schedule.ts';

/** Every airport the built-in network serves (either end of a route), sorted: for tests that walk them all. */
export function servedAirports(): string[] {
  return [...new Set(networkRoutes().flatMap((route) => [route.a, route.b]))].sort();
}

/** Every leg leaving `origin`, built: for tests that walk the schedule. */
export function legsFrom(origin: string) {
  return destinationsFrom(origin).flatMap((to) => legBetween(origin, to) ?? []);
}
