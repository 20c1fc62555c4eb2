import { type Airport, airport, greatCircleKm } from './airports.ts';
import { type Aircraft, aircraftFor } from './cabins.ts';
import { type LocalDate, zonedTimeToEpoch } from './local-time.ts';
import { type Airline, airlines, networkRoutes, serviceNumbering, servicesBetween } from './network.ts';

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
interface Leg {
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
function blockMinutes(distanceKm: number): number {
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

/**
 * One carrier's service on a route, in one direction: its flights are numbered `firstNumber`,
 * `firstNumber + 2`, … outbound (the route's a → b) and one more each on the way back.
 */
interface Service {
  readonly carrier: Airline;
  readonly daily: number;
  readonly firstNumber: number;
  /** 0 outbound, 1 on the way back. */
  readonly back: 0 | 1;
  readonly from: string;
  readonly to: string;
}

/**
 * Where every flight number sits: built on the first request of a container from the route table,
 * one entry per carrier and route (numbers depend on the order of every route, so they are counted
 * for all at once, but only as integers). Legs and flights are built from it for the pairs a
 * request asks about ({@link legBetween}), never for the whole network. A flight looked up by number
 * ({@link scheduledFlight}, a booking's) does not build it.
 */
interface NetworkIndex {
  /** The services from each airport, by destination, in route order. */
  readonly byOrigin: Map<string, Map<string, Service[]>>;
}

let index: NetworkIndex | undefined;

function networkIndex(): NetworkIndex {
  if (index) return index;
  const carriers = new Map(airlines.map((a) => [a.code, a]));
  const nextNumber = new Map<string, number>();
  const byOrigin = new Map<string, Map<string, Service[]>>();
  // Runs once, on a cold start's first request, in the interpreter: no spread, no helper closures.
  const add = (service: Service) => {
    let destinations = byOrigin.get(service.from);
    if (!destinations) {
      destinations = new Map();
      byOrigin.set(service.from, destinations);
    }
    const services = destinations.get(service.to);
    if (services) services.push(service);
    else destinations.set(service.to, [service]);
  };
  for (const route of networkRoutes()) {
    for (const { carrier: code, daily } of route.carriers) {
      const carrier = carriers.get(code);
      if (!carrier) throw new Error(`route ${route.a}-${route.b}: unknown carrier ${code}`);
      // Outbound odd, return the next even number: BA117 out, BA118 back.
      const firstNumber = nextNumber.get(code) ?? 101;
      nextNumber.set(code, firstNumber + 2 * daily);
      add({ carrier, daily, firstNumber, back: 0, from: route.a, to: route.b });
      add({ carrier, daily, firstNumber, back: 1, from: route.b, to: route.a });
    }
  }
  index = { byOrigin };
  return index;
}

/** Legs built so far: a warm container builds each leg it is asked for once. */
const legs = new Map<string, Leg>();

/** The leg from `origin` to `destination`, if flown; built on first use, then kept. */
export function legBetween(origin: string, destination: string): Leg | undefined {
  const key = `${origin}-${destination}`;
  const built = legs.get(key);
  if (built) return built;
  const services = networkIndex().byOrigin.get(origin)?.get(destination);
  if (!services) return undefined;
  const leg = buildLeg(origin, destination, services);
  legs.set(key, leg);
  return leg;
}

function buildLeg(origin: string, destination: string, services: readonly Service[]): Leg {
  const from = airport(origin);
  const to = airport(destination);
  const distanceKm = greatCircleKm(from, to);
  const flights = services.flatMap((service) =>
    Array.from({ length: service.daily }, (_, i) => {
      const flightNumber = `${service.carrier.code}${service.firstNumber + 2 * i + service.back}`;
      return {
        flightNumber,
        carrier: service.carrier,
        departureMinute: departureMinute(i, service.daily, flightNumber),
      };
    }),
  );
  return {
    origin: from,
    destination: to,
    distanceKm,
    blockMinutes: blockMinutes(distanceKm),
    aircraft: aircraftFor(distanceKm),
    flights: flights.sort((x, y) => x.departureMinute - y.departureMinute),
  };
}

/** Where `flightNumber` flies from and to, by the schedule's spelling and numbering; undefined if never flown. */
function flownBetween(flightNumber: string): { origin: string; destination: string } | undefined {
  const code = flightNumber.slice(0, 2);
  const number = Number(flightNumber.slice(2));
  if (!Number.isSafeInteger(number) || `${code}${number}` !== flightNumber) return undefined;
  const back = number % 2 === 0 ? 1 : 0;
  const service = serviceNumbering(code, number - back);
  if (!service) return undefined;
  return back ? { origin: service.b, destination: service.a } : { origin: service.a, destination: service.b };
}

/**
 * The leg from `origin` to `destination`, built from its own route's lines alone (network.ts
 * servicesBetween): the same leg as {@link legBetween}'s without building the network index, so that a
 * booking, which knows its flight numbers, builds only the legs it books.
 */
function legOfPair(origin: string, destination: string): Leg | undefined {
  const services: Service[] = [];
  for (const s of servicesBetween(origin, destination)) {
    const carrier = airlines.find((a) => a.code === s.carrier);
    if (!carrier) throw new Error(`route ${s.a}-${s.b}: unknown carrier ${s.carrier}`);
    const back = s.a === origin ? 0 : 1;
    services.push({
      carrier,
      daily: s.daily,
      firstNumber: s.firstNumber,
      back,
      from: origin,
      to: destination,
    });
  }
  return services.length > 0 ? buildLeg(origin, destination, services) : undefined;
}

/** The airports flown to from `origin`, in route order; no leg is built. */
export function destinationsFrom(origin: string): readonly string[] {
  return [...(networkIndex().byOrigin.get(origin)?.keys() ?? [])];
}

/** Whether any carrier flies from `origin` to `destination`; no leg is built. */
export function isFlown(origin: string, destination: string): boolean {
  return networkIndex().byOrigin.get(origin)?.has(destination) ?? false;
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

/**
 * Flight `flightNumber` on local date `date`, if it exists (only in the spelling the schedule gives it).
 * Found from the flight number's own route ({@link legOfPair}), never through the network index: a
 * booking's cold start builds only the legs it books.
 */
export function scheduledFlight(flightNumber: string, date: LocalDate): ScheduledFlight | undefined {
  const pair = flownBetween(flightNumber);
  if (!pair) return undefined;
  const key = `${pair.origin}-${pair.destination}`;
  let leg = legs.get(key);
  if (!leg) {
    leg = legOfPair(pair.origin, pair.destination);
    if (leg) legs.set(key, leg);
  }
  const flight = leg?.flights.find((f) => f.flightNumber === flightNumber);
  return leg && flight ? onDate(leg, flight, date) : undefined;
}
