import { airport, greatCircleKm, servedAirport } from './airports.ts';
import { type LocalDate, localDateAt } from './local-time.ts';
import { destinationsFrom, flightsOn, isFlown, legBetween, type ScheduledFlight } from './schedule.ts';

/** A connection needs at least this long at the connecting airport… */
const MIN_CONNECTION_MINUTES = 60;
/** …and at most this long. */
const MAX_CONNECTION_MINUTES = 6 * 60;
/** A connecting airport is considered when going through it is at most this much longer. */
const MAX_DETOUR = 1.5;
/** Flights leaving sooner than this are no longer offered. */
export const MIN_LEAD_MINUTES = 60;

/** One way from origin to destination: one flight, or two connecting at the same airport. */
export type Itinerary = readonly ScheduledFlight[];

/**
 * Every itinerary from the schedule alone: the direct flights of the day, and with `maxConnections`
 * 1 the one-stop pairs through any airport served from the origin and to the destination, within
 * the detour limit, connecting after 60 minutes to 6 hours. Work is bounded by the network.
 */
export function findItineraries(
  origin: string,
  destination: string,
  date: LocalDate,
  options: { maxConnections: 0 | 1; earliestDeparture: number },
): Itinerary[] {
  const bookable = (f: ScheduledFlight) => f.departureAt >= options.earliestDeparture;
  const direct = legBetween(origin, destination);
  const itineraries: Itinerary[] = direct
    ? flightsOn(direct, date)
        .filter(bookable)
        .map((f) => [f])
    : [];
  if (options.maxConnections === 0) return itineraries;

  const from = servedAirport(origin);
  const to = servedAirport(destination);
  if (!from || !to) return itineraries;
  const straight = greatCircleKm(from, to);
  for (const hub of destinationsFrom(origin)) {
    // Judged from the airports alone (a leg's distance is the same great circle), so that legs are built
    // only through hubs that connect: from London, 14 of 55 for New York.
    if (!isFlown(hub, destination)) continue;
    const via = airport(hub);
    if (greatCircleKm(from, via) + greatCircleKm(via, to) > MAX_DETOUR * straight) continue;
    const first = legBetween(origin, hub);
    const second = legBetween(hub, destination);
    if (!first || !second) continue;
    const hubZone = first.destination.timeZone;
    const onwardByDate = new Map<LocalDate, ScheduledFlight[]>();
    for (const arriving of flightsOn(first, date).filter(bookable)) {
      const earliest = arriving.arrivalAt + MIN_CONNECTION_MINUTES * 60_000;
      const latest = arriving.arrivalAt + MAX_CONNECTION_MINUTES * 60_000;
      for (const hubDate of new Set([localDateAt(hubZone, earliest), localDateAt(hubZone, latest)])) {
        let onward = onwardByDate.get(hubDate);
        if (!onward) {
          onward = flightsOn(second, hubDate);
          onwardByDate.set(hubDate, onward);
        }
        for (const leaving of onward) {
          if (leaving.departureAt >= earliest && leaving.departureAt <= latest)
            itineraries.push([arriving, leaving]);
        }
      }
    }
  }
  return itineraries;
}
