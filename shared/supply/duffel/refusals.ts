import {
  type ApiError,
  OfferExpiredError,
  ServiceUnavailableError,
  SoldOutError,
  SupplierRejectedError,
  ValidationError,
} from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { DuffelApiError, DuffelRefusal } from './client.ts';

/**
 * Duffel's refusals as the API's errors (docs/API.md §4.5): a validation error on a field we can name
 * is a 400 on that field; the offer gone is 410 (booked) or 409 SOLD_OUT; anything else the airline or
 * Duffel refuses is 422 SUPPLIER_REJECTED with Duffel's message. A refused token is our configuration,
 * not the client's: 503, logged as an error for the operator.
 */

/** Our field for a Duffel order field (`passengers[1].family_name` → `passengers.1.last_name`). */
const PASSENGER_FIELDS: Record<string, string> = {
  given_name: 'first_name',
  family_name: 'last_name',
  born_on: 'born_on',
  gender: 'gender',
  title: 'title',
};

/** Our field for a Duffel offer-request field. */
const SEARCH_FIELDS: Record<string, string> = {
  'slices[0].origin': 'origin',
  'slices[0].destination': 'destination',
  'slices[0].departure_date': 'departure_date',
  'slices[1].departure_date': 'return_date',
  cabin_class: 'travel_class',
  max_connections: 'max_connections',
};

/** Our path for a Duffel order field, given where each Duffel passenger came from in our request. */
export function orderFieldPath(field: string | undefined, ourIndex: readonly number[]): string | undefined {
  const match = field && /^passengers\[(\d+)\]\.(\w+)$/.exec(field);
  if (!match) return undefined;
  const [, index = '', name = ''] = match;
  if (name === 'phone_number') return 'contact.phone';
  if (name === 'email') return 'contact.email';
  const ours = ourIndex[Number(index)];
  const mapped = PASSENGER_FIELDS[name];
  return ours === undefined || !mapped ? undefined : `passengers.${ours}.${mapped}`;
}

/**
 * Our search field for a Duffel offer-request field: a multi-city search's slices are ours one for one,
 * and a refusal of its list of slices as a whole (Duffel states no cap on their number; an airline's
 * would come back this way) is on our `slices`: 400 VALIDATION_ERROR there (docs/API.md §4.5).
 */
export function searchFieldPath(field: string | undefined, multiCity = false): string | undefined {
  if (multiCity && field === 'slices') return 'slices';
  const slice = multiCity && field && /^slices\[(\d)\]\.(origin|destination|departure_date)$/.exec(field);
  if (slice) return `slices.${slice[1]}.${slice[2]}`;
  return field ? SEARCH_FIELDS[field] : undefined;
}

/** The API error for a Duffel refusal; `pathOf` maps Duffel's field names to ours. */
export function refusalError(
  refusal: DuffelRefusal,
  pathOf: (field: string | undefined) => string | undefined,
  log: Logger,
): ApiError {
  if (refusal.status === 401 || refusal.status === 403) {
    log.error('duffel refused the access token', { status: refusal.status });
    return new ServiceUnavailableError(60);
  }
  if (refusal.has('already_booked')) return new OfferExpiredError();
  if (refusal.has('offer_no_longer_available') || refusal.has('not_found')) return new SoldOutError();
  const mapped = refusal.errors.map((e: DuffelApiError) => ({ error: e, path: pathOf(e.source?.field) }));
  if (mapped.length > 0 && mapped.every((m) => m.path && m.error.type === 'validation_error')) {
    return new ValidationError(mapped.map((m) => ({ path: m.path ?? '', message: m.error.message })));
  }
  return new SupplierRejectedError(
    mapped.map((m) => ({ ...(m.path && { path: m.path }), message: m.error.message })),
  );
}
