import * as z from 'zod/mini';
import type { Clock } from '../clock.ts';
import { findAirport } from './airports.ts';
import { TRAVEL_CLASSES } from './cabins.ts';
import { MAX_JOURNEYS, MIN_JOURNEYS } from './journeys.ts';
import { addDays, daysBetween, isCalendarDate, localDateAt } from './local-time.ts';
import '../zod-locale.ts';

/** Searches reach this many days ahead at most. */
const MAX_DAYS_AHEAD = 330;
const SORTS = ['PRICE', 'DURATION', 'DEPARTURE'] as const;
export type SortOrder = (typeof SORTS)[number];

/** Each schema below is built when the search request is (createSearchRequest), not at import. */
const airportCode = () =>
  z.string().check(
    z.superRefine((code, ctx) => {
      if (!/^[A-Z]{3}$/.test(code)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a 3-letter IATA airport code in capitals, e.g. LHR',
        });
      } else if (!findAirport(code)) {
        ctx.addIssue({ code: 'custom', message: 'is not a known airport' });
      }
    }),
    z.meta({
      description: 'IATA airport code known to Open Travel Data',
      pattern: '^[A-Z]{3}$',
      examples: ['LHR'],
    }),
  );

const TIME_OF_DAY = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

const isTravelDate = (value: string) =>
  isCalendarDate(value.slice(0, 10)) && (value.length === 10 || TIME_OF_DAY.test(value.slice(10)));

/** A travel day: `YYYY-MM-DD`, or an ISO 8601 date-time whose date part is used. */
const TravelDate = (description: string, example: string) =>
  z
    .pipe(
      z.string().check(z.refine(isTravelDate, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time')),
      z.transform((value) => value.slice(0, 10)),
    )
    .check(
      z.meta({
        description,
        // Each branch typed: a generator reads an untyped branch as `unknown` (openapi-typescript did).
        anyOf: [
          { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          {
            type: 'string',
            format: 'date-time',
            pattern: `^\\d{4}-\\d{2}-\\d{2}${TIME_OF_DAY.source.slice(1)}`,
          },
        ],
        examples: [example],
      }),
    );
const departureDate = () =>
  TravelDate(
    'Departure day, local at the origin: YYYY-MM-DD, or an ISO 8601 date-time whose date part is used. From today at the origin to 330 days ahead.',
    '2026-12-01',
  );
const returnDate = () =>
  TravelDate(
    'Present for a round trip: the day of the way back, local at the destination, in the same form. On or after departure_date, at most 330 days ahead.',
    '2026-12-08',
  );

const Count = (min: number, max?: number) => {
  const range = max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`;
  const count = z.int('must be a whole number').check(z.minimum(min, range));
  return max === undefined ? count : count.check(z.maximum(max, range));
};

/** Runs a cross-field rule only when the fields it reads are valid themselves. */
const whenValid =
  (...fields: string[]) =>
  (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    // A root issue (the body is not an object) means no field can be read at all.
    !payload.issues.some((issue) => !issue.path?.length || fields.includes(String(issue.path[0])));

type Issue = (path: PropertyKey[], message: string) => void;

/** A departure day against today at the origin: not before it, at most {@link MAX_DAYS_AHEAD} after. */
function checkDeparture(clock: Clock, originCode: string, date: string, path: PropertyKey[], issue: Issue) {
  const origin = findAirport(originCode);
  if (!origin) return;
  const today = localDateAt(origin.timeZone, clock.now());
  const ahead = daysBetween(today, date);
  if (ahead < 0) issue(path, `must not be before today at the origin (${today})`);
  else if (ahead > MAX_DAYS_AHEAD)
    issue(path, `must be at most ${MAX_DAYS_AHEAD} days ahead (${addDays(today, MAX_DAYS_AHEAD)})`);
}

/** One journey of a multi-city search: the fields of a one-way search. */
const journey = () =>
  z.object({ origin: airportCode(), destination: airportCode(), departure_date: departureDate() });

/** The fields a multi-city search replaces. */
const SINGLE_TRIP_FIELDS = ['origin', 'destination', 'departure_date', 'return_date'] as const;

/** Journey by journey: origin ≠ destination, each date in range at its origin and in date order, no repeat. */
function checkJourneys(
  clock: Clock,
  slices: readonly { origin: string; destination: string; departure_date: string }[],
  issue: Issue,
) {
  slices.forEach((journey, i) => {
    const previous = slices[i - 1];
    if (journey.origin === journey.destination)
      issue(['slices', i, 'destination'], 'must differ from origin');
    checkDeparture(clock, journey.origin, journey.departure_date, ['slices', i, 'departure_date'], issue);
    if (!previous) return;
    if (journey.departure_date < previous.departure_date)
      issue(
        ['slices', i, 'departure_date'],
        `must not be before the previous journey's departure_date (${previous.departure_date})`,
      );
    else if (
      journey.departure_date === previous.departure_date &&
      journey.origin === previous.origin &&
      journey.destination === previous.destination
    )
      issue(['slices', i], 'repeats the previous journey: the same origin and destination on the same day');
  });
}

/** The search's fields, each checked on its own. */
const searchFields = () =>
  z.object({
    origin: z.optional(airportCode()),
    destination: z.optional(airportCode()),
    departure_date: z.optional(departureDate()),
    return_date: z.optional(returnDate()),
    slices: z.optional(
      z.array(journey()).check(
        z.minLength(MIN_JOURNEYS, `must list ${MIN_JOURNEYS} to ${MAX_JOURNEYS} journeys`),
        z.maxLength(MAX_JOURNEYS, `must list ${MIN_JOURNEYS} to ${MAX_JOURNEYS} journeys`),
        z.meta({
          description:
            'Multi-city: 2-6 journeys in date order (each departure_date on or after the one before), each as a one-way search, never the previous journey again on the same day, each next journey leaving at least 2 hours after the previous one lands. Given instead of origin, destination, departure_date and return_date, which are required without it.',
        }),
      ),
    ),
    adults: z._default(Count(1, 9), 1),
    // Their real maximums, so the document states them: with at least one adult, at most 8 children;
    // infants at most one per adult, so at most 9. The cross-field rules below say the rest.
    children: z
      ._default(Count(0, 8), 0)
      .check(z.meta({ description: 'Aged 2-11; adults + children at most 9' })),
    infants: z
      ._default(Count(0, 9), 0)
      .check(z.meta({ description: 'Under 2, on an adult’s lap; at most one per adult' })),
    travel_class: z._default(z.enum(TRAVEL_CLASSES), 'ECONOMY'),
    max_connections: z._default(z.union([z.literal(0), z.literal(1)], 'must be 0 or 1'), 1),
    sort: z._default(z.enum(SORTS), 'PRICE'),
    limit: z._default(Count(1, 100), 50),
  });

/**
 * Exactly one of the two field sets, a single trip's or `slices`: stated in the document as JSON Schema
 * (the first rule), and checked field by field.
 */
const oneFieldSet = () =>
  [
    z.meta({
      oneOf: [
        {
          description: 'One way, or a round trip with return_date',
          required: ['origin', 'destination', 'departure_date'],
          not: { required: ['slices'] },
        },
        {
          description: 'Multi-city: slices, without the single trip’s fields',
          required: ['slices'],
          not: { anyOf: SINGLE_TRIP_FIELDS.map((field) => ({ required: [field] })) },
        },
      ],
    }),
    z.superRefine(
      (body: z.output<ReturnType<typeof searchFields>>, ctx) => {
        const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path, message });
        if (body.slices) {
          for (const field of SINGLE_TRIP_FIELDS)
            if (body[field] !== undefined) issue([field], 'must be left out when slices are given');
          return;
        }
        for (const field of ['origin', 'destination', 'departure_date'] as const)
          if (body[field] === undefined) issue([field], 'is required');
      },
      { when: whenValid() },
    ),
  ] as const;

/**
 * The search request (docs/API.md §4.1): one way, a round trip (`return_date`) or multi-city
 * (`slices`, 2–6 journeys, instead of the single trip's fields). The clock decides "today" at each
 * origin, so the schema is made per clock.
 */
export function createSearchRequest(clock: Clock) {
  return searchFields().check(
    ...oneFieldSet(),
    z.refine((body) => body.slices !== undefined || body.origin !== body.destination, {
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
        const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path, message });
        if (body.slices) checkJourneys(clock, body.slices, issue);
        else if (body.origin && body.departure_date)
          checkDeparture(clock, body.origin, body.departure_date, ['departure_date'], issue);
      },
      { when: whenValid('origin', 'departure_date', 'slices') },
    ),
    z.superRefine(
      (body, ctx) => {
        const destination = body.destination && findAirport(body.destination);
        if (!destination || !body.departure_date || body.return_date === undefined) return;
        const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['return_date'], message });
        const today = localDateAt(destination.timeZone, clock.now());
        if (body.return_date < body.departure_date) issue('must not be before departure_date');
        else if (daysBetween(today, body.return_date) > MAX_DAYS_AHEAD)
          issue(`must be at most ${MAX_DAYS_AHEAD} days ahead (${addDays(today, MAX_DAYS_AHEAD)})`);
      },
      { when: whenValid('destination', 'departure_date', 'return_date') },
    ),
  );
}

export type SearchInput = z.output<ReturnType<typeof createSearchRequest>>;
