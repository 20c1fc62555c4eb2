import * as z from 'zod';
import type { Session } from '../auth/session.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { findAirport, greatCircleKm, servedAirport } from './airports.ts';
import { TRAVEL_CLASSES, type TravelClass } from './cabins.ts';
import {
  baseFare,
  CURRENCY,
  fareBuckets,
  type PassengerCounts,
  partyFare,
  quoteBucket,
  seatsFor,
} from './fares.ts';
import {
  type FlightView,
  flightView,
  itineraryDuration,
  MAX_SEATS_SHOWN,
  type PricedItinerary,
} from './flight-view.ts';
import { type FlightDate, flightDateKey, readSoldSeats, type SoldSeats } from './inventory.ts';
import { addDays, daysBetween, isCalendarDate, type LocalDate, localDateAt } from './local-time.ts';
import { OFFER_TTL_SECONDS, sealOffer } from './offers.ts';
import { flightsOn, legBetween, legsFrom, type ScheduledFlight } from './schedule.ts';

/** A connection needs at least this long at the connecting airport… */
export const MIN_CONNECTION_MINUTES = 60;
/** …and at most this long. */
export const MAX_CONNECTION_MINUTES = 6 * 60;
/** A connecting airport is considered when going through it is at most this much longer. */
export const MAX_DETOUR = 1.5;
/** Flights leaving sooner than this are no longer offered. */
export const MIN_LEAD_MINUTES = 60;
/** Searches reach this many days ahead at most. */
export const MAX_DAYS_AHEAD = 330;
/** Flight-dates priced per search at most: three BatchGetItem calls, so search stays within 4 round trips. */
export const MAX_PRICED_FLIGHT_DATES = 300;

export const SORTS = ['PRICE', 'DURATION', 'DEPARTURE'] as const;
export type SortOrder = (typeof SORTS)[number];

const AirportCode = z
  .string()
  .superRefine((code, ctx) => {
    if (!/^[A-Z]{3}$/.test(code)) {
      ctx.addIssue({ code: 'custom', message: 'must be a 3-letter IATA airport code in capitals, e.g. LHR' });
    } else if (!findAirport(code)) {
      ctx.addIssue({ code: 'custom', message: 'is not a known airport' });
    }
  })
  .meta({
    description: 'IATA airport code known to Open Travel Data',
    pattern: '^[A-Z]{3}$',
    examples: ['LHR'],
  });

const TIME_OF_DAY = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;
const DepartureDate = z
  .string()
  .refine(
    (value) =>
      isCalendarDate(value.slice(0, 10)) && (value.length === 10 || TIME_OF_DAY.test(value.slice(10))),
    'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
  )
  .transform((value) => value.slice(0, 10))
  .meta({
    description:
      'Departure day, local at the origin: YYYY-MM-DD, or an ISO 8601 date-time whose date part is used. From today at the origin to 330 days ahead.',
    anyOf: [
      { format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      { format: 'date-time', pattern: `^\\d{4}-\\d{2}-\\d{2}${TIME_OF_DAY.source.slice(1)}` },
    ],
    examples: ['2026-12-01'],
  });

const Count = (min: number, max?: number) => {
  const range = max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`;
  const count = z.int('must be a whole number').min(min, range);
  return max === undefined ? count : count.max(max, range);
};

/** Runs a cross-field rule only when the fields it reads are valid themselves. */
const whenValid =
  (...fields: string[]) =>
  (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    // A root issue (the body is not an object) means no field can be read at all.
    !payload.issues.some((issue) => !issue.path?.length || fields.includes(String(issue.path[0])));

/**
 * The search request (API.md §4.1). The clock decides "today" at the origin, so the schema is made
 * per clock.
 */
export function createSearchRequest(clock: Clock) {
  return z
    .object({
      origin: AirportCode,
      destination: AirportCode,
      departure_date: DepartureDate,
      adults: Count(1, 9).default(1),
      children: Count(0).default(0).meta({ description: 'Aged 2-11; adults + children at most 9' }),
      infants: Count(0).default(0).meta({ description: 'Under 2, on an adult’s lap; at most one per adult' }),
      travel_class: z.enum(TRAVEL_CLASSES).default('ECONOMY'),
      max_connections: z.union([z.literal(0), z.literal(1)], 'must be 0 or 1').default(1),
      sort: z.enum(SORTS).default('PRICE'),
      limit: Count(1, 100).default(50),
    })
    .check(
      z.refine((body) => body.origin !== body.destination, {
        path: ['destination'],
        message: 'must differ from origin',
        when: whenValid('origin', 'destination'),
      }),
      z.refine((body) => body.adults + body.children <= 9, {
        path: ['children'],
        message: 'adults and children together must be at most 9',
        when: whenValid('adults', 'children'),
      }),
      z.refine((body) => body.infants <= body.adults, {
        path: ['infants'],
        message: 'must not exceed adults: each infant travels on an adult’s lap',
        when: whenValid('adults', 'infants'),
      }),
      z.superRefine(
        (body, ctx) => {
          const origin = findAirport(body.origin);
          if (!origin) return;
          const today = localDateAt(origin.timeZone, clock.now());
          const ahead = daysBetween(today, body.departure_date);
          if (ahead < 0) {
            ctx.addIssue({
              code: 'custom',
              path: ['departure_date'],
              message: `must not be before today at the origin (${today})`,
            });
          } else if (ahead > MAX_DAYS_AHEAD) {
            ctx.addIssue({
              code: 'custom',
              path: ['departure_date'],
              message: `must be at most ${MAX_DAYS_AHEAD} days ahead (${addDays(today, MAX_DAYS_AHEAD)})`,
            });
          }
        },
        { when: whenValid('origin', 'departure_date') },
      ),
    );
}

export type SearchInput = z.output<ReturnType<typeof createSearchRequest>>;

export interface SearchDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly offer: Uint8Array };
}

type Itinerary = readonly ScheduledFlight[];

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
  for (const first of legsFrom(origin)) {
    const second = legBetween(first.destination.code, destination);
    if (!second || first.distanceKm + second.distanceKm > MAX_DETOUR * straight) continue;
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

/** The cheapest a party could pay, before inventory is read: what PRICE ranks candidates by. */
function floorPrice(itinerary: Itinerary, travelClass: TravelClass, pax: PassengerCounts): number {
  let total = 0;
  for (const flight of itinerary)
    total += partyFare(baseFare(flight.leg.distanceKm, travelClass, flight.carrier.code), pax);
  return total;
}

type Comparable = { total: number; duration: number; departure: number; numbers: string };
const comparators: Record<SortOrder, (a: Comparable, b: Comparable) => number> = {
  PRICE: (a, b) =>
    a.total - b.total ||
    a.duration - b.duration ||
    a.departure - b.departure ||
    a.numbers.localeCompare(b.numbers),
  DURATION: (a, b) =>
    a.duration - b.duration ||
    a.total - b.total ||
    a.departure - b.departure ||
    a.numbers.localeCompare(b.numbers),
  DEPARTURE: (a, b) =>
    a.departure - b.departure ||
    a.total - b.total ||
    a.duration - b.duration ||
    a.numbers.localeCompare(b.numbers),
};
const comparable = (segments: Itinerary, total: number): Comparable => ({
  total,
  duration: itineraryDuration(segments),
  departure: segments[0]?.departureAt ?? 0,
  numbers: segments.map((s) => s.flightNumber).join(' '),
});

/**
 * The candidates worth pricing, best first for `sort` (by floor price for PRICE), until
 * `maxFlightDates` distinct flight-dates are needed. Itineraries whose aircraft lack the cabin are dropped.
 */
export function selectForPricing(
  itineraries: readonly Itinerary[],
  sort: SortOrder,
  travelClass: TravelClass,
  pax: PassengerCounts,
  maxFlightDates = MAX_PRICED_FLIGHT_DATES,
): { itineraries: Itinerary[]; flightDates: FlightDate[] } {
  const ranked = itineraries
    .filter((it) => it.every((f) => (f.leg.aircraft.seats[travelClass] ?? 0) >= seatsFor(pax)))
    .map((it) => ({ it, key: comparable(it, floorPrice(it, travelClass, pax)) }))
    .sort((a, b) => comparators[sort](a.key, b.key));
  const chosen: Itinerary[] = [];
  const flightDates = new Map<string, FlightDate>();
  for (const { it } of ranked) {
    const fresh = it.filter((f) => !flightDates.has(flightDateKey(f)));
    if (flightDates.size + fresh.length > maxFlightDates) break;
    for (const f of fresh) flightDates.set(flightDateKey(f), f);
    chosen.push(it);
  }
  return { itineraries: chosen, flightDates: [...flightDates.values()] };
}

/** Prices an itinerary against sold seats; undefined when a segment cannot seat the party. */
export function priceItinerary(
  itinerary: Itinerary,
  travelClass: TravelClass,
  pax: PassengerCounts,
  sold: SoldSeats,
): PricedItinerary | undefined {
  const buckets: number[] = [];
  let total = 0;
  let seatsLeft = Number.POSITIVE_INFINITY;
  for (const flight of itinerary) {
    const capacity = flight.leg.aircraft.seats[travelClass] ?? 0;
    const soldSeats = sold.get(flightDateKey(flight)) ?? 0;
    const base = baseFare(flight.leg.distanceKm, travelClass, flight.carrier.code);
    const bucket = quoteBucket(fareBuckets(travelClass, capacity, base), soldSeats, seatsFor(pax));
    if (!bucket) return undefined;
    buckets.push(bucket.index);
    total += partyFare(bucket.fare, pax);
    seatsLeft = Math.min(seatsLeft, capacity - soldSeats);
  }
  return { segments: itinerary, buckets, total, seatsLeft };
}

/** Sorts priced itineraries for `sort` and keeps the first `limit`. */
export function rankItineraries(
  priced: readonly PricedItinerary[],
  sort: SortOrder,
  limit: number,
): PricedItinerary[] {
  return priced
    .map((p) => ({ p, key: comparable(p.segments, p.total) }))
    .sort((a, b) => comparators[sort](a.key, b.key))
    .slice(0, limit)
    .map(({ p }) => p);
}

/**
 * `POST /api/flights/search`. Candidates come from the schedule; their inventory is read in at most
 * three BatchGetItem calls (none when nothing flies); each result is sealed into an offer bound to
 * the caller's agency for 20 minutes.
 */
export function searchFlights(deps: SearchDeps) {
  return async (body: SearchInput, session: Session): Promise<FlightView[]> => {
    const pax: PassengerCounts = { adults: body.adults, children: body.children, infants: body.infants };
    const now = deps.clock.now();

    const found = findItineraries(body.origin, body.destination, body.departure_date, {
      maxConnections: body.max_connections,
      earliestDeparture: now + MIN_LEAD_MINUTES * 60_000,
    });
    const candidates = selectForPricing(found, body.sort, body.travel_class, pax);
    const sold = candidates.flightDates.length
      ? await readSoldSeats(deps, candidates.flightDates, body.travel_class)
      : new Map<string, number>();
    const priced = candidates.itineraries
      .map((it) => priceItinerary(it, body.travel_class, pax, sold))
      .filter((p): p is PricedItinerary => p !== undefined);

    const expiresAt = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
    const offers = rankItineraries(priced, body.sort, body.limit).map((itinerary) => {
      const id = sealOffer(deps.keys.offer, {
        agencyId: session.agencyId,
        expiresAt,
        travelClass: body.travel_class,
        passengers: pax,
        segments: itinerary.segments.map((f, i) => ({
          flightNumber: f.flightNumber,
          date: f.date,
          bucket: itinerary.buckets[i] ?? 0,
        })),
        total: itinerary.total,
        currency: CURRENCY,
        seatsShown: Math.min(MAX_SEATS_SHOWN, itinerary.seatsLeft),
      });
      return flightView({ id, expiresAt, travelClass: body.travel_class, passengers: pax }, itinerary);
    });
    return offers;
  };
}
