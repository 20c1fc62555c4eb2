import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useZones, zoneOf } from '../airports.ts';
import type { Failure } from '../api.ts';
import {
  type Booking,
  type BookingStatus,
  getBooking,
  isStatus,
  journeysOf,
  type ListFilters,
  listBookings,
  normalPnr,
  routeOf,
  STATUSES,
} from '../bookings.ts';
import { DateField, ErrorNotice, Link, Progress } from '../components.tsx';
import { formatMoney } from '../offers.ts';
import { navigate, type Place } from '../router.ts';
import { formatDay, isIsoDate, localTime, yourTime } from '../time.ts';
import { useCall } from '../use-call.ts';
import './manage.css';

/**
 * The filter's words for each status. Not the status itself: the status in capitals is what a badge
 * says, and only badges should (a closed select's options are text nobody sees).
 */
const STATUS_NAMES: Record<BookingStatus, string> = {
  CONFIRMED: 'Confirmed',
  HELD: 'Held',
  PENDING: 'Being confirmed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired holds',
  FAILED: 'Failed',
};

/** A status as a badge: its text is the status itself (docs/console.md: tests and screen readers read it). */
export function StatusBadge({ status }: { status: BookingStatus }) {
  return <span class={`badge status status-${status.toLowerCase()}`}>{status}</span>;
}

/** The first departure of a booking, at its airport's local time, labelled. */
function Departure({ booking }: { booking: Booking }) {
  const first = journeysOf(booking)[0]?.segments[0];
  if (!first) return null;
  const at = localTime(first.departure_at, zoneOf(first.origin));
  return (
    <time dateTime={first.departure_at}>
      {formatDay(at.date)} {at.time} <span class="zone">{at.zoneLabel}</span>
    </time>
  );
}

/** The workspace's filters as the address keeps them (`?q=…&from=…&to=…&mine=1&view=holds&status=…`). */
interface Shown extends ListFilters {
  holds: boolean;
}

function shownBy(query: URLSearchParams): Shown {
  const wanted = query.get('status');
  const holds = query.get('view') === 'holds';
  return {
    holds,
    ...(isStatus(wanted) && !holds && { status: wanted }),
    ...(query.get('q') && { q: query.get('q') ?? '' }),
    ...(query.get('from') && { departure_from: query.get('from') ?? '' }),
    ...(query.get('to') && { departure_to: query.get('to') ?? '' }),
    ...(query.get('mine') === '1' && { created_by: 'me' as const }),
    sort: holds ? 'deadline' : 'created',
  };
}

/** The address of `shown` with `change` made: every filter kept in it, so back, forward and reload keep them. */
function addressOf(shown: Shown, change: Partial<Shown>): string {
  const next = { ...shown, ...change };
  const query = new URLSearchParams();
  if (next.holds) query.set('view', 'holds');
  if (next.status && !next.holds) query.set('status', next.status);
  if (next.q) query.set('q', next.q);
  if (next.departure_from) query.set('from', next.departure_from);
  if (next.departure_to) query.set('to', next.departure_to);
  if (next.created_by === 'me') query.set('mine', '1');
  const text = query.toString();
  return text ? `/bookings?${text}` : '/bookings';
}

/**
 * The bookings workspace (docs/console.md, Bookings): the agency's bookings newest first, or the Holds
 * view soonest deadline first; search by PNR, last name or e-mail, departure dates, Mine only and a
 * status, all kept in the address; a PNR finder in any letter case; more pages on demand, and a page
 * the service cut short at its read budget says that more may match.
 */
export function BookingsScreen({ place }: { place: Place }) {
  const shown = shownBy(place.query);
  const key = addressOf(shown, {});
  const [bookings, setBookings] = useState<Booking[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [partial, setPartial] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(false);
  // A booking found by its PNR, shown alone until the agent goes back to the list.
  const [found, setFound] = useState<Booking>();

  const load = async (from: { cursor?: string }, replace: boolean) => {
    setPending(true);
    setFailure(undefined);
    const { holds: _, ...filters } = shown;
    const outcome = await listBookings({ ...from, ...filters });
    setPending(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    setBookings((listed) => (replace ? outcome.body.data : [...listed, ...outcome.body.data]));
    setCursor(outcome.body.meta?.next_cursor ?? null);
    setPartial(outcome.body.meta?.partial === true);
  };

  // New filters are a new list: its pages walk only the bookings that pass them.
  useEffect(() => {
    setBookings([]);
    setCursor(null);
    setFound(undefined);
    void load({}, true);
  }, [key]);

  return (
    <main id="main">
      <h1 tabIndex={-1}>{shown.holds ? 'Holds' : 'Bookings'}</h1>
      <Views holds={shown.holds} />
      <div class="row toolbar">
        {!shown.holds && <StatusFilter status={shown.status} />}
        <FindByPnr onFound={setFound} />
      </div>
      <SearchBookings key={key} shown={shown} onSearch={(change) => navigate(addressOf(shown, change))} />
      {found ? (
        <>
          <BookingTable bookings={[found]} holds={false} />
          <button type="button" class="secondary" onClick={() => setFound(undefined)}>
            Show all bookings
          </button>
        </>
      ) : (
        <BookingList bookings={bookings} pending={pending} failure={failure} shown={shown}>
          <MorePages
            cursor={pending ? null : cursor}
            partial={partial}
            onMore={(next) => load({ cursor: next }, false)}
          />
        </BookingList>
      )}
    </main>
  );
}

/** All bookings or the Holds view (by deadline): two addresses, the current one marked. */
function Views({ holds }: { holds: boolean }) {
  return (
    <nav aria-label="Booking views" class="views">
      <Link href="/bookings" aria-current={holds ? undefined : 'page'}>
        All bookings
      </Link>
      <Link href="/bookings?view=holds" aria-current={holds ? 'page' : undefined}>
        Holds
      </Link>
    </nav>
  );
}

/** The next page: "More bookings", or, after a page the read budget cut short, that more may match. */
function MorePages(props: { cursor: string | null; partial: boolean; onMore: (cursor: string) => void }) {
  const { cursor, partial, onMore } = props;
  if (!cursor) return null;
  return (
    <div class="more">
      {partial && (
        <p class="notice" role="status">
          More may match: the search stopped after reading its share of your bookings.
        </p>
      )}
      <button type="button" class="secondary" onClick={() => onMore(cursor)}>
        {partial ? 'Load more' : 'More bookings'}
      </button>
    </div>
  );
}

const DATE_WRONG = 'Write the date as YYYY-MM-DD, e.g. 2026-12-24.';
/** Either departure date may stay empty; one typed must be a day of the calendar. */
const typedWrong = (date: string) => date.trim() !== '' && !isIsoDate(date.trim());

/** Search text, departure dates (typed `YYYY-MM-DD`, whatever the browser's locale) and Mine only. */
function SearchBookings({ shown, onSearch }: { shown: Shown; onSearch: (change: Partial<Shown>) => void }) {
  const [q, setQ] = useState(shown.q ?? '');
  const [from, setFrom] = useState(shown.departure_from ?? '');
  const [to, setTo] = useState(shown.departure_to ?? '');
  const [mine, setMine] = useState(shown.created_by === 'me');
  const [wrong, setWrong] = useState<string>();
  const dateError = (id: string) => (wrong === id ? DATE_WRONG : undefined);
  const submit = (event: Event) => {
    event.preventDefault();
    const bad = typedWrong(from) ? 'search-from' : typedWrong(to) ? 'search-to' : undefined;
    setWrong(bad);
    if (bad) return document.getElementById(bad)?.focus();
    onSearch({
      q: q.trim() || undefined,
      departure_from: from.trim() || undefined,
      departure_to: to.trim() || undefined,
      created_by: mine ? 'me' : undefined,
    });
  };
  return (
    <form class="row search-bookings" aria-label="Booking search" onSubmit={submit} noValidate>
      <div>
        <label for="search-q">Search bookings</label>
        <input
          id="search-q"
          type="search"
          autoComplete="off"
          spellcheck={false}
          value={q}
          placeholder="PNR, last name or e-mail"
          onInput={(event) => setQ(event.currentTarget.value)}
        />
      </div>
      <DateField
        id="search-from"
        label="Departs from"
        value={from}
        onChange={setFrom}
        error={dateError('search-from')}
      />
      <DateField
        id="search-to"
        label="Departs to"
        value={to}
        onChange={setTo}
        error={dateError('search-to')}
      />
      <div class="check">
        <input
          id="search-mine"
          type="checkbox"
          checked={mine}
          onChange={(e) => setMine(e.currentTarget.checked)}
        />
        <label for="search-mine">Mine only</label>
      </div>
      <button type="submit">Find bookings</button>
    </form>
  );
}

/** The status shown, kept in the address: choosing one navigates. */
function StatusFilter({ status }: { status: BookingStatus | undefined }) {
  const filterBy = (value: string) => navigate(value ? `/bookings?status=${value}` : '/bookings');
  return (
    <div>
      <label for="status-filter">Status</label>
      <select id="status-filter" value={status ?? ''} onChange={(e) => filterBy(e.currentTarget.value)}>
        <option value="">All statuses</option>
        {STATUSES.map((value) => (
          <option key={value} value={value}>
            {STATUS_NAMES[value]}
          </option>
        ))}
      </select>
    </div>
  );
}

function BookingList(props: {
  bookings: Booking[];
  pending: boolean;
  failure: Failure | undefined;
  shown: Shown;
  children: ComponentChildren;
}) {
  const { bookings, pending, failure, shown, children } = props;
  const filtered = shown.q || shown.departure_from || shown.departure_to || shown.created_by;
  return (
    <>
      <ErrorNotice failure={failure} />
      {!pending && !failure && bookings.length === 0 && (
        <p class="notice" role="status">
          {shown.holds
            ? 'No holds waiting for payment.'
            : shown.status
              ? `No bookings in this status (${STATUS_NAMES[shown.status].toLowerCase()}).`
              : filtered
                ? 'No bookings match.'
                : 'No bookings yet: search for flights to make one.'}
        </p>
      )}
      {bookings.length > 0 && <BookingTable bookings={bookings} holds={shown.holds} />}
      <Progress pending={pending} label="Loading bookings…" />
      {children}
    </>
  );
}

function BookingTable({ bookings, holds }: { bookings: Booking[]; holds: boolean }) {
  // Departures show in their airport's zone: asked once per airport not yet known.
  useZones([...new Set(bookings.map((b) => journeysOf(b)[0]?.segments[0]?.origin ?? ''))].filter(Boolean));
  return (
    <table class="bookings">
      <caption class="visually-hidden">
        {holds ? 'Holds, soonest deadline first' : "The agency's bookings, newest first"}
      </caption>
      <thead>
        <tr>
          <th scope="col">PNR</th>
          <th scope="col">Status</th>
          {holds && <th scope="col">Pay by (your time)</th>}
          <th scope="col">Route</th>
          <th scope="col">Departs</th>
          <th scope="col">Passengers</th>
          <th scope="col">Price</th>
          <th scope="col">Booked by</th>
        </tr>
      </thead>
      <tbody>
        {bookings.map((booking) => (
          <tr key={booking.booking_id}>
            <th scope="row">
              <Link href={`/bookings/${encodeURIComponent(booking.booking_id)}`}>
                {booking.pnr ?? 'no PNR yet'}
              </Link>
            </th>
            <td data-label="Status">
              <StatusBadge status={booking.status} />
            </td>
            {holds && (
              <td data-label="Pay by" class="deadline">
                {booking.payment_required_by && (
                  <time dateTime={booking.payment_required_by}>{yourTime(booking.payment_required_by)}</time>
                )}
              </td>
            )}
            <td data-label="Route">{routeOf(booking)}</td>
            <td data-label="Departs">
              <Departure booking={booking} />
            </td>
            <td data-label="Passengers">
              {booking.passengers.map((p) => `${p.first_name} ${p.last_name}`).join(', ')}
            </td>
            <td data-label="Price" class="money">
              {formatMoney(booking.total_price, booking.currency)}
            </td>
            <td data-label="Booked by">{booking.created_by?.name ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Finds a booking by its PNR, typed in any letter case, and shows it. */
function FindByPnr({ onFound }: { onFound: (booking: Booking) => void }) {
  const [pnr, setPnr] = useState('');
  const { pending, failure, run } = useCall();
  const find = async (event: Event) => {
    event.preventDefault();
    if (pnr.trim() === '') return;
    const outcome = await run(() => getBooking({ pnr }));
    if (outcome?.ok) onFound(outcome.body.data);
  };
  const notFound = failure?.code === 'NOT_FOUND' || failure?.code === 'VALIDATION_ERROR';
  return (
    <form class="row" onSubmit={find} aria-label="Find a booking">
      <div>
        <label for="pnr">PNR</label>
        <input
          id="pnr"
          name="pnr"
          autoComplete="off"
          spellcheck={false}
          value={pnr}
          onInput={(event) => setPnr(event.currentTarget.value)}
          aria-describedby="pnr-error"
        />
      </div>
      <button type="submit" disabled={pending || pnr.trim() === ''}>
        Find
      </button>
      <p id="pnr-error" class="field-error" aria-live="polite">
        {notFound ? `No booking of your agency has the PNR ${normalPnr(pnr)}.` : ''}
      </p>
      {!notFound && <ErrorNotice failure={failure} />}
    </form>
  );
}
