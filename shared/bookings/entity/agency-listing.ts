import { isoSeconds } from '../../clock.ts';
import type { TableHandle } from '../../db/client.ts';
import { isLateHold } from './booking.ts';
import {
  type BOOKING_STATUSES,
  type BookingRecord,
  listPositionOf,
  queryAgencyListing,
  readBookings,
  readListPosition,
} from './booking-item.ts';
import { queryAgencyHolds } from './held-item.ts';
import { type ListingFilter, matchesFilter } from './listing-filter.ts';

type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * Items one list request may read at most, matching its filters or not (2-3 MB of DynamoDB reads at
 * today's item sizes: docs/bookings.md, "What a filtered page costs"): listing entries and bookings
 * alike, so a page by deadline (an entry, then its booking) reads at most half as many holds. A
 * filtered page that has not found its bookings within it ends short, `partial`, with a cursor after
 * the last item read.
 */
export const LIST_READ_BUDGET = 1_000;

/**
 * How a page ended: `next` is the position the next page starts after (undefined when no booking
 * follows); `partial` when the read budget ended it (a booking may or may not follow `next`).
 */
interface ListingPage {
  readonly bookings: BookingRecord[];
  readonly next: string | undefined;
  readonly partial: boolean;
}

/** What one list request asks for (docs/API.md §4.3): a position is a cursor's text. */
interface ListingRequest {
  readonly limit: number;
  readonly after: string | undefined;
  readonly statuses?: readonly BookingStatus[] | undefined;
  readonly filter?: ListingFilter | undefined;
  /** `created`: newest first (GSI1, the agency's listing); `deadline`: holds, soonest deadline first. */
  readonly sort?: 'created' | 'deadline' | undefined;
  readonly now: number;
}

/** Where a page's bookings come from, in its order: one read of `read` candidates after `after`. */
interface Source {
  /** Items read per candidate: 1 from the listing itself, 2 for an entry and then its booking. */
  readonly cost: number;
  read(
    after: string | undefined,
    read: number,
  ): Promise<{ records: BookingRecord[]; next: string | undefined }>;
  position(record: BookingRecord): string;
  /** The status as answered at the request's time (a late hold is EXPIRED) is one the page wants. */
  wanted(status: BookingStatus): boolean;
}

/**
 * The stored statuses that can answer as one of `wanted` at the time of the request: a hold past its
 * deadline is stored HELD until the sweep stores EXPIRED, but answers EXPIRED at once (§4.4).
 */
const storedFor = (wanted: readonly BookingStatus[]) =>
  wanted.includes('EXPIRED') && !wanted.includes('HELD') ? [...wanted, 'HELD'] : [...wanted];

/** The agency's listing, newest first; with statuses, a FilterExpression on the stored status. */
const byCreation = (store: TableHandle, agencyId: string, statuses?: readonly BookingStatus[]): Source => ({
  cost: 1,
  async read(after, read) {
    const position = after === undefined ? undefined : readListPosition(after);
    const result = await queryAgencyListing(store, agencyId, {
      after: position,
      read,
      ...(statuses && { statuses: storedFor(statuses) }),
    });
    return {
      records: result.records,
      next:
        result.next &&
        listPositionOf({ created_at: result.next.createdAt, booking_id: result.next.bookingId }),
    };
  },
  position: listPositionOf,
  wanted: (status) => !statuses || statuses.includes(status),
});

/**
 * The agency's holds, soonest deadline first (held-item.ts), each booking read after its entry; only
 * holds still in time at `now` (a later deadline than this second: booking.ts's rule) are read at all.
 */
const byDeadline = (
  store: TableHandle,
  agencyId: string,
  now: number,
  statuses?: readonly BookingStatus[],
): Source => {
  const inTime = `${isoSeconds(now)}#~`;
  return {
    cost: 2,
    async read(after, read) {
      const from = after !== undefined && after > inTime ? after : inTime;
      const { bookingIds, next } = await queryAgencyHolds(store, agencyId, { after: from, read });
      return { records: await readBookings(store, bookingIds), next };
    },
    position: (record) => `${record.payment_required_by ?? ''}#${record.booking_id}`,
    wanted: (status) => status === 'HELD' && (!statuses || statuses.includes('HELD')),
  };
};

/**
 * One page of an agency's bookings after `after`, in the request's sort, only those whose status (as
 * answered at `now`) and fields pass its filters. Reads until it holds `limit` bookings and knows
 * whether one more follows (so `next` is undefined exactly when none does), the source ends, or
 * LIST_READ_BUDGET items have been read (`partial`): the first read asks for `limit + 1` candidates,
 * each later one for twice as many as the one before (a filter that matches rarely reaches the end in
 * few round trips).
 */
export async function listAgencyBookings(
  store: TableHandle,
  agencyId: string,
  page: ListingRequest,
): Promise<ListingPage> {
  const { limit, statuses, now } = page;
  const source =
    page.sort === 'deadline'
      ? byDeadline(store, agencyId, now, statuses)
      : byCreation(store, agencyId, statuses);
  // As the answer will show it: a late hold is EXPIRED (a read stores that before answering: manage.ts).
  const shown = (record: BookingRecord) => (isLateHold(record, now) ? 'EXPIRED' : record.status);
  const wanted = (record: BookingRecord) =>
    source.wanted(shown(record)) && matchesFilter(record, page.filter ?? {});
  const found: BookingRecord[] = [];
  let after = page.after;
  let read = 0;
  for (let ask = limit + 1; ; ask *= 2) {
    const batch = Math.min(ask, Math.floor((LIST_READ_BUDGET - read) / source.cost));
    const result = await source.read(after, batch);
    found.push(...result.records.filter(wanted));
    read += batch * source.cost;
    if (found.length > limit) {
      const last = found[limit - 1];
      return { bookings: found.slice(0, limit), next: last && source.position(last), partial: false };
    }
    if (!result.next) return { bookings: found, next: undefined, partial: false };
    after = result.next;
    if (read + source.cost > LIST_READ_BUDGET) return { bookings: found, next: after, partial: true };
  }
}
