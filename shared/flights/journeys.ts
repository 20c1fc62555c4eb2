/**
 * The journeys of a search, apart from its schema: no module-level work, so a bundle that needs only
 * these (the Duffel mapping) does not carry the request schema and the network's airports with it.
 */

/** A multi-city search takes this many journeys at least and at most (docs/API.md §4.1). */
export const MIN_JOURNEYS = 2;
export const MAX_JOURNEYS = 6;

/** What a journey list is read from: a validated search request's trip fields. */
interface TripFields {
  readonly origin?: string | undefined;
  readonly destination?: string | undefined;
  readonly departure_date?: string | undefined;
  readonly return_date?: string | undefined;
  readonly slices?: readonly { origin: string; destination: string; departure_date: string }[] | undefined;
}

/** One journey of a search: from `origin` to `destination`, leaving on `date` (local at the origin). */
interface JourneyRequest {
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
}

/**
 * The journeys a valid search asks for, in order: one for one way, two for a round trip (the way back
 * from the destination), the `slices` for multi-city.
 */
export function journeysOf(body: TripFields): JourneyRequest[] {
  if (body.slices)
    return body.slices.map((s) => ({ origin: s.origin, destination: s.destination, date: s.departure_date }));
  // Validation made these present whenever `slices` is absent.
  const origin = body.origin ?? '';
  const destination = body.destination ?? '';
  const outbound = { origin, destination, date: body.departure_date ?? '' };
  return body.return_date === undefined
    ? [outbound]
    : [outbound, { origin: destination, destination: origin, date: body.return_date }];
}
