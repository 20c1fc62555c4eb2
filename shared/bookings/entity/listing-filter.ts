import { createHash } from 'node:crypto';
import { findAirport } from '../../flights/airports.ts';
import { localDateAt } from '../../flights/local-time.ts';
import type { BookingRecord } from './booking-item.ts';

/**
 * What a list request narrows an agency's bookings to besides `status` (docs/API.md §4.3, turn 5):
 * each given field must hold, and an absent one narrows nothing. Checked in code on each booking read,
 * within the listing's read budget (agency-listing.ts).
 */
export interface ListingFilter {
  /** Folded (foldText): a PNR, a passenger's whole last name or the contact e-mail. */
  readonly q?: string | undefined;
  /** The first departure's date, local at its airport, inclusive bounds (`YYYY-MM-DD`). */
  readonly departureFrom?: string | undefined;
  readonly departureTo?: string | undefined;
  /** Only bookings this agent made (`created_by: "me"`). */
  readonly agentId?: string | undefined;
}

/**
 * Text as search compares it: accents and other marks dropped (compatibility decomposition), lower
 * case, surrounding spaces trimmed and inner runs of spaces made one: `  Müller ` and `MULLER` fold alike.
 */
export const foldText = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/gu, ' ');

/** The first departure's date at its airport (UTC when the airport's zone is unknown). */
function firstDepartureDate(record: Pick<BookingRecord, 'flight'>): string {
  const first = record.flight.outbound.segments[0];
  if (!first) return '';
  const zone = findAirport(first.origin)?.timeZone;
  return zone ? localDateAt(zone, Date.parse(first.departure_at)) : first.departure_at.slice(0, 10);
}

/** Whether `q` (folded) names the booking: its PNR, a passenger's whole last name, or the contact e-mail. */
const namedBy = (record: BookingRecord, q: string) =>
  (record.pnr !== null && foldText(record.pnr) === q) ||
  foldText(record.contact.email) === q ||
  record.passengers.some((passenger) => foldText(passenger.last_name) === q);

/** Whether `record` passes every field `filter` gives. */
export function matchesFilter(record: BookingRecord, filter: ListingFilter): boolean {
  if (filter.agentId !== undefined && record.agent_id !== filter.agentId) return false;
  if (filter.q !== undefined && !namedBy(record, filter.q)) return false;
  if (filter.departureFrom === undefined && filter.departureTo === undefined) return true;
  const date = firstDepartureDate(record);
  return (
    (filter.departureFrom === undefined || date >= filter.departureFrom) &&
    (filter.departureTo === undefined || date <= filter.departureTo)
  );
}

/**
 * The filter as a cursor is bound to it (shared/cursor.ts): fixed order, and the search text as a
 * short hash (a cursor carries no passenger's name or e-mail, and stays within its 512 characters).
 */
export function filterBinding(filter: ListingFilter): string[] {
  return [
    ...(filter.q !== undefined
      ? [`q=${createHash('sha256').update(filter.q).digest('base64url').slice(0, 16)}`]
      : []),
    ...(filter.departureFrom !== undefined ? [`from=${filter.departureFrom}`] : []),
    ...(filter.departureTo !== undefined ? [`to=${filter.departureTo}`] : []),
    ...(filter.agentId !== undefined ? ['by=me'] : []),
  ];
}
