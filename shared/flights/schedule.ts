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

function buildLegs(): { byOrigin: Map<string, Map<string, Leg>>; byFlightNumber: Map<string, Leg> } {
  const carriers = new Map(airlines.map((a) => [a.code, a]));
  const nextNumber = new Map<string, number>();
  const byOrigin = new Map<string, Map<string, Leg>>();
  const byFlightNumber = new Map<string, Leg>();
  const flights = new Map<string, DailyFlight[]>();
  const key = (a: string, b: string) => `${a}-${b}`;

  for (const route of networkRoutes) {
    for (const { carrier: code, daily } of route.carriers) {
      const carrier = carriers.get(code);
      if (!carrier) throw new Error(`route ${route.a}-${route.b}: unknown carrier ${code}`);
      for (let i = 0; i < daily; i++) {
        // Outbound odd, return the next even number: BA117 out, BA118 back.
        const outbound = nextNumber.get(code) ?? 101;
        nextNumber.set(code, outbound + 2);
        for (const [from, to, number] of [
          [route.a, route.b, outbound],
          [route.b, route.a, outbound + 1],
        ] as const) {
          const flightNumber = `${code}${number}`;
          const list = flights.get(key(from, to)) ?? [];
          list.push({ flightNumber, carrier, departureMinute: departureMinute(i, daily, flightNumber) });
          flights.set(key(from, to), list);
        }
      }
    }
    for (const [from, to] of [
      [route.a, route.b],
      [route.b, route.a],
    ] as const) {
      const origin = airport(from);
      const destination = airport(to);
      const distanceKm = greatCircleKm(origin, destination);
      const leg: Leg = {
        origin,
        destination,
        distanceKm,
        blockMinutes: blockMinutes(distanceKm),
        aircraft: aircraftFor(distanceKm),
        flights: (flights.get(key(from, to)) ?? []).sort((x, y) => x.departureMinute - y.departureMinute),
      };
      const fromOrigin = byOrigin.get(from) ?? new Map<string, Leg>();
      fromOrigin.set(to, leg);
      byOrigin.set(from, fromOrigin);
      for (const flight of leg.flights) byFlightNumber.set(flight.flightNumber, leg);
    }
  }
  return { byOrigin, byFlightNumber };
}

const network = buildLegs();

/** Every airport the network serves. */
export const servedAirports: readonly string[] = [...network.byOrigin.keys()].sort();

/** The leg from `origin` to `destination`, if flown. */
export function legBetween(origin: string, destination: string): Leg | undefined {
  return network.byOrigin.get(origin)?.get(destination);
}

/** Every leg leaving `origin`. */
export function legsFrom(origin: string): readonly Leg[] {
  return [...(network.byOrigin.get(origin)?.values() ?? [])];
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
  const leg = network.byFlightNumber.get(flightNumber);
  const flight = leg?.flights.find((f) => f.flightNumber === flightNumber);
  return leg && flight ? onDate(leg, flight, date) : undefined;
}
