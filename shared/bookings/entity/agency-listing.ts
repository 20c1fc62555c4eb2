import type { TableHandle } from '../../db/client.ts';
import { isLateHold } from './booking.ts';
import {
  type BOOKING_STATUSES,
  type BookingRecord,
  type ListPosition,
  queryAgencyListing,
} from './booking-item.ts';

type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * Booking items one list request may read at most, matching its filter or not (2-3 MB of DynamoDB
 * reads at today's item sizes: docs/bookings.md, "What a filtered page costs"). A filtered page that
 * has not found its bookings within it ends short, with a cursor after the last item read.
 */
export const LIST_READ_BUDGET = 1_000;

/** How a page ended: `next` is where the next page starts, undefined when no booking follows. */
interface ListingPage {
  readonly bookings: BookingRecord[];
  readonly next: ListPosition | undefined;
}

/**
 * The stored statuses that can answer as one of `wanted` at the time of the request: a hold past its
 * deadline is stored HELD until the sweep stores EXPIRED, but answers EXPIRED at once (§4.4).
 */
const storedFor = (wanted: readonly BookingStatus[]) =>
  wanted.includes('EXPIRED') && !wanted.includes('HELD') ? [...wanted, 'HELD'] : [...wanted];

/**
 * One page of an agency's bookings, newest first, after `after`, only those whose status (as answered
 * at `now`) is one of `statuses` when given. Queries until it holds `limit` bookings and knows whether
 * one more follows (so `next` is undefined exactly when none does), the listing ends, or
 * LIST_READ_BUDGET items have been read: the first Query asks for `limit + 1` items, each later one for
 * twice as many as the one before (a filter that matches rarely reaches the end in few round trips).
 */
export async function listAgencyBookings(
  store: TableHandle,
  agencyId: string,
  page: { limit: number; after: ListPosition | undefined; statuses?: readonly BookingStatus[]; now: number },
): Promise<ListingPage> {
  const { limit, statuses, now } = page;
  // As the answer will show it: a late hold is EXPIRED (a read stores that before answering: manage.ts).
  const shown = (record: BookingRecord) => (isLateHold(record, now) ? 'EXPIRED' : record.status);
  const wanted = (record: BookingRecord) => !statuses || statuses.includes(shown(record));
  const found: BookingRecord[] = [];
  let after = page.after;
  let read = 0;
  for (let ask = limit + 1; ; ask *= 2) {
    const batch = Math.min(ask, LIST_READ_BUDGET - read);
    const result = await queryAgencyListing(store, agencyId, {
      after,
      read: batch,
      ...(statuses && { statuses: storedFor(statuses) }),
    });
    found.push(...result.records.filter(wanted));
    read += batch;
    if (found.length > limit) {
      const last = found[limit - 1];
      return {
        bookings: found.slice(0, limit),
        next: last && { createdAt: last.created_at, bookingId: last.booking_id },
      };
    }
    if (!result.next || read >= LIST_READ_BUDGET) return { bookings: found, next: result.next };
    after = result.next;
  }
}
