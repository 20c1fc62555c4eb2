import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { findAirport, servedAirport } from '../flights/airports.ts';
import type { BookedTrip, JourneyChange } from '../flights/change-offers.ts';
import { searchChanges } from '../flights/change-offers.ts';
import { type ChangeOfferView, changeOfferView, changeQuote, sealChange } from '../flights/change-quote.ts';
import { MAX_JOURNEYS } from '../flights/journeys.ts';
import { addDays, daysBetween, isCalendarDate, localDateAt } from '../flights/local-time.ts';
import type { SearchDeps } from '../flights/search.ts';
import '../zod-locale.ts';
import { changeableTrip, changeTerms } from './change-rules.ts';
import { changeStamp, findBooking } from './entity/booking-item.ts';
import { BookingId } from './entity/ids.ts';
import type { ChangeFlow, OrderDeps, SupplierChangeOfferView } from './flow.ts';

/** Dates reach this many days ahead at most, as search's (docs/API.md §4.1). */
const MAX_DAYS_AHEAD = 330;

const code = () =>
  z.string().check(
    z.regex(/^[A-Z]{3}$/, 'must be a 3-letter IATA airport code in capitals, e.g. LHR'),
    z.refine((value) => findAirport(value) !== undefined, 'is not a known airport'),
    z.meta({
      description: 'IATA airport code known to Open Travel Data; the journey’s own when left out',
      pattern: '^[A-Z]{3}$',
      examples: ['JFK'],
    }),
  );

/** A journey to change: its index in the booking's trip, the new day, and where from and to (default: as booked). */
const journey = () =>
  z.object({
    index: z
      .int('must be a whole number')
      .check(
        z.minimum(0, `must be between 0 and ${MAX_JOURNEYS - 1}`),
        z.maximum(MAX_JOURNEYS - 1, `must be between 0 and ${MAX_JOURNEYS - 1}`),
        z.meta({ description: 'The journey’s index in the booking’s `flight.slices`' }),
      ),
    departure_date: z.string().check(
      z.refine(isCalendarDate, 'must be a date (YYYY-MM-DD)'),
      z.meta({
        description: 'The new day, local at the origin: from today at the origin to 330 days ahead.',
        format: 'date',
        examples: ['2026-12-03'],
      }),
    ),
    origin: z.optional(code()),
    destination: z.optional(code()),
  });

/** The request schema, built when first used (http/validate.ts), never at import. */
export const changeSearchRequest = () =>
  z.object({
    booking_id: BookingId,
    journeys: z.array(journey()).check(
      z.minLength(1, `must list 1-${MAX_JOURNEYS} journeys`),
      z.maxLength(MAX_JOURNEYS, `must list 1-${MAX_JOURNEYS} journeys`),
      z.refine(
        (list) => new Set(list.map((j) => j.index)).size === list.length,
        'must not list a journey twice',
      ),
      z.meta({ description: 'The journeys to change, each index once' }),
    ),
    limit: z._default(
      z.optional(
        z
          .int('must be a whole number')
          .check(z.minimum(1, 'must be between 1 and 100'), z.maximum(100, 'must be between 1 and 100')),
      ),
      50,
    ),
  });
type ChangeSearchInput = z.output<ReturnType<typeof changeSearchRequest>>;

export const notFound = () => new NotFoundError('No such booking in your agency.');

/**
 * The changes asked for, checked against the booking's trip: each index one of its journeys, the airports
 * served, the day from today at the origin to 330 days ahead (400 on the field otherwise).
 */
function journeyChanges(body: ChangeSearchInput, trip: BookedTrip, now: number): JourneyChange[] {
  const problems: { path: string; message: string }[] = [];
  const changes = body.journeys.map((asked, i) => {
    const booked = trip.journeys[asked.index];
    const path = `journeys.${i}`;
    if (!booked) problems.push({ path: `${path}.index`, message: `must be below ${trip.journeys.length}` });
    const origin = asked.origin ?? booked?.segments[0]?.leg.origin.code ?? '';
    const destination = asked.destination ?? booked?.segments.at(-1)?.leg.destination.code ?? '';
    for (const [field, value] of [
      ['origin', origin],
      ['destination', destination],
    ] as const)
      if (booked && !servedAirport(value))
        problems.push({ path: `${path}.${field}`, message: 'is not an airport the network serves' });
    const from = servedAirport(origin);
    const ahead = from ? daysBetween(localDateAt(from.timeZone, now), asked.departure_date) : 0;
    if (ahead < 0)
      problems.push({ path: `${path}.departure_date`, message: 'must not be before today at the origin' });
    if (from && ahead > MAX_DAYS_AHEAD)
      problems.push({
        path: `${path}.departure_date`,
        message: `must be at most ${MAX_DAYS_AHEAD} days ahead (${addDays(localDateAt(from.timeZone, now), MAX_DAYS_AHEAD)})`,
      });
    return { index: asked.index, origin, destination, date: asked.departure_date };
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return changes;
}

/**
 * `POST /api/flights/booking/change-search` (docs/API.md §4.9): the booking's trip with the journeys
 * asked for moved, best first as search sorts by price, each a ChangeOffer sealed for 20 minutes and
 * bound to the booking's version.
 */
export function searchBookingChanges(deps: SearchDeps & OrderDeps<ChangeFlow>) {
  return async (
    body: ChangeSearchInput,
    session: Session,
  ): Promise<ChangeOfferView[] | SupplierChangeOfferView[]> => {
    const record = await findBooking(deps, body.booking_id, session.agencyId);
    if (!record) throw notFound();
    // A supplier's own changes (docs/API.md §4.9), given by the stage's flow; none: the in-table ones below.
    if (deps.orderFlow.changes) return deps.orderFlow.changes.search(deps, record, body);
    const now = deps.clock.now();
    const indices = body.journeys.map((j) => j.index);
    const trip = changeableTrip(
      record,
      indices.filter((i) => i < record.segments.length),
      now,
    );
    const changes = journeyChanges(body, trip, now);
    const terms = changeTerms(record.flight, indices, record.currency);
    const found = await searchChanges(deps, trip, { changes, terms, sort: 'PRICE', limit: body.limit });
    const booking = {
      agencyId: session.agencyId,
      bookingId: record.booking_id,
      version: changeStamp(record).version,
      changed: indices,
    };
    return found.map((changed) => {
      const quote = changeQuote(booking, changed, now, trip);
      return changeOfferView(sealChange(deps.keys.offer, quote), quote, trip, changed.journey.slices.flat());
    });
  };
}
