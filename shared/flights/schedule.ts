import { type Airport, airport, greatCircleKm } from './airports.ts';
import { type Aircraft, aircraftFor } from './cabins.ts';
import { type LocalDate, zonedTimeToEpoch } from './local-time.ts';
import { type Airline, airlines, networkRoutes } from './network.ts';

/**
 * The schedule: a pure function of the network and the date. Every day the same flight numbers
 * leave at the same local times; UTC times follow each origin's time zone through DST.
 */

/** Local departures fall between 06:00 and 23:00. */
const FIRST_DEPARTURE = 6 * 60;
const LAST_DEPARTURE = 23 * 60;

/** One daily flight of a leg: its number and local departure time. */
interface DailyFlight {
  readonly flightNumber: string;
  readonly carrier: Airline;
  /** Minutes after local midnight at the origin. */
  readonly departureMinute: number;
}

/** A directed airport pair with its daily flights. */
export interface Leg {
  readonly origin: Airport;
  readonly destination: Airport;
  readonly distanceKm: number;
  readonly blockMinutes: number;
  readonly aircraft: Aircraft;
  readonly flights: readonly DailyFlight[];
}

/** A flight on a date. Times are epoch milliseconds. */
export interface ScheduledFlight {
  readonly flightNumber: string;
  readonly carrier: Airline;
  readonly leg: Leg;
  /** Local calendar date of departure at the origin. */
  readonly date: LocalDate;
  readonly departureAt: number;
  readonly arrivalAt: number;
}

/** Block time: 45 minutes plus the great-circle distance at 850 km/h, to the next 5 minutes. */
export function blockMinutes(distanceKm: number): number {
  return Math.ceil((45 + (distanceKm / 850) * 60) / 5) * 5;
}

/** A small, stable spread (−30 … +30 minutes) so flights do not all leave on the hour. */
function jitterMinutes(flightNumber: string): number {
  let hash = 0;
  for (const char of flightNumber) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return (hash % 13) * 5 - 30;
}

function departureMinute(index: number, daily: number, flightNumber: string): number {
  const spacing = (LAST_DEPARTURE - FIRST_DEPARTURE) / daily;
  const raw = FIRST_DEPARTURE + (index + 0.5) * spacing + jitterMinutes(flightNumber);
  return Math.min(LAST_DEPARTURE, Math.max(FIRST_DEPARTURE, Math.round(raw / 5) * 5));
}

/** A flight number's place in the network, assigned once; the rest of its leg is built on demand. */
interface PlannedFlight {
  readonly flightNumber: string;
  readonly carrier: Airline;
  readonly index: number;
  readonly daily: number;
}

/**
 * The network's flight numbers, in one cheap pass over the route table (numbers depend on the order
 * of every route, so they are assigned for all at once): who flies each directed pair, and which pair
 * each number flies. Airports, distances, aircraft and departure times are left for {@link legBetween}.
 */
function planFlights(): {
  byOrigin: Map<string, Map<string, PlannedFlight[]>>;
  pairOf: Map<string, readonly [string, string]>;
} {
  const carriers = new Map(airlines.map((a) => [a.code, a]));
  const nextNumber = new Map<string, number>();
  const byOrigin = new Map<string, Map<string, PlannedFlight[]>>();
  const pairOf = new Map<string, readonly [string, string]>();
  const plan = (from: string, to: string) => {
    const fromOrigin = byOrigin.get(from) ?? new Map<string, PlannedFlight[]>();
    byOrigin.set(from, fromOrigin);
    const list = fromOrigin.get(to) ?? [];
    fromOrigin.set(to, list);
    return list;
  };

  for (const route of networkRoutes) {
    const out = plan(route.a, route.b);
    const back = plan(route.b, route.a);
    for (const { carrier: code, daily } of route.carriers) {
      const carrier = carriers.get(code);
      if (!carrier) throw new Error(`route ${route.a}-${route.b}: unknown carrier ${code}`);
      for (let index = 0; index < daily; index++) {
        // Outbound odd, return the next even number: BA117 out, BA118 back.
        const number = nextNumber.get(code) ?? 101;
        nextNumber.set(code, number + 2);
        out.push({ flightNumber: `${code}${number}`, carrier, index, daily });
        back.push({ flightNumber: `${code}${number + 1}`, carrier, index, daily });
        pairOf.set(`${code}${number}`, [route.a, route.b]);
        pairOf.set(`${code}${number + 1}`, [route.b, route.a]);
      }
    }
  }
  return { byOrigin, pairOf };
}

const plan = planFlights();
/** Legs built so far: a warm container builds each leg it is asked for once. */
const legs = new Map<string, Leg>();

/** Every airport the network serves. */
export const servedAirports: readonly string[] = [...plan.byOrigin.keys()].sort();

/** The leg from `origin` to `destination`, if flown; built on first use, then kept. */
export function legBetween(origin: string, destination: string): Leg | undefined {
  const key = `${origin}-${destination}`;
  const built = legs.get(key);
  if (built) return built;
  const planned = plan.byOrigin.get(origin)?.get(destination);
  if (!planned) return undefined;
  const from = airport(origin);
  const to = airport(destination);
  const distanceKm = greatCircleKm(from, to);
  const leg: Leg = {
    origin: from,
    destination: to,
    distanceKm,
    blockMinutes: blockMinutes(distanceKm),
    aircraft: aircraftFor(distanceKm),
    flights: planned
      .map((p) => ({
        flightNumber: p.flightNumber,
        carrier: p.carrier,
        departureMinute: departureMinute(p.index, p.daily, p.flightNumber),
      }))
      .sort((x, y) => x.departureMinute - y.departureMinute),
  };
  legs.set(key, leg);
  return leg;
}

/** Every leg leaving `origin`. */
export function legsFrom(origin: string): readonly Leg[] {
  return [...(plan.byOrigin.get(origin)?.keys() ?? [])].flatMap((to) => legBetween(origin, to) ?? []);
}

function onDate(leg: Leg, flight: DailyFlight, date: LocalDate): ScheduledFlight {
  const departureAt = zonedTimeToEpoch(date, flight.departureMinute, leg.origin.timeZone);
  return {
    flightNumber: flight.flightNumber,
    carrier: flight.carrier,
    leg,
    date,
    departureAt,
    arrivalAt: departureAt + leg.blockMinutes * 60_000,
  };
}

/** The flights of a leg that leave on local date `date` at its origin, earliest first. */
export function flightsOn(leg: Leg, date: LocalDate): ScheduledFlight[] {
  return leg.flights.map((flight) => onDate(leg, flight, date));
}

/** Flight `flightNumber` on local date `date`, if it exists. */
export function scheduledFlight(flightNumber: string, date: LocalDate): ScheduledFlight | undefined {
  const pair = plan.pairOf.get(flightNumber);
  const leg = pair && legBetween(pair[0], pair[1]);
  const flight = leg?.flights.find((f) => f.flightNumber === flightNumber);
  return leg && flight ? onDate(leg, flight, date) : undefined;
}
