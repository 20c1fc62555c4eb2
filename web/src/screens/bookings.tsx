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
  listBookings,
  normalPnr,
  routeOf,
  STATUSES,
} from '../bookings.ts';
import { ErrorNotice, Link, Progress } from '../components.tsx';
import { formatMoney } from '../offers.ts';
import { navigate, type Place } from '../router.ts';
import { formatDay, localTime } from '../time.ts';
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

/**
 * The agency's bookings, newest first (docs/console.md, Bookings): a status filter kept in the address
 * (`?status=HELD`, so back, forward and reload keep it), a PNR finder in any letter case, and more
 * pages on demand.
 */
export function BookingsScreen({ place }: { place: Place }) {
  const wanted = place.query.get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const [bookings, setBookings] = useState<Booking[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(false);
  // A booking found by its PNR, shown alone until the agent goes back to the list.
  const [found, setFound] = useState<Booking>();

  const load = async (from: { cursor?: string }, replace: boolean) => {
    setPending(true);
    setFailure(undefined);
    const outcome = await listBookings({ ...from, ...(status && { status }) });
    setPending(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    setBookings((shown) => (replace ? outcome.body.data : [...shown, ...outcome.body.data]));
    setCursor(outcome.body.meta.next_cursor);
  };

  // A new filter is a new list: its pages walk only the bookings in that status.
  useEffect(() => {
    setBookings([]);
    setCursor(null);
    setFound(undefined);
    void load({}, true);
  }, [status]);

  return (
    <main id="main">
      <h1 tabIndex={-1}>Bookings</h1>
      <div class="row toolbar">
        <StatusFilter status={status} />
        <FindByPnr onFound={setFound} />
      </div>
      {found ? (
        <>
          <BookingTable bookings={[found]} />
          <button type="button" class="secondary" onClick={() => setFound(undefined)}>
            Show all bookings
          </button>
        </>
      ) : (
        <BookingList bookings={bookings} pending={pending} failure={failure} status={status}>
          {cursor && !pending && (
            <button type="button" class="secondary" onClick={() => load({ cursor }, false)}>
              More bookings
            </button>
          )}
        </BookingList>
      )}
    </main>
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
  status: BookingStatus | undefined;
  children: ComponentChildren;
}) {
  const { bookings, pending, failure, status, children } = props;
  return (
    <>
      <ErrorNotice failure={failure} />
      {!pending && !failure && bookings.length === 0 && (
        <p class="notice" role="status">
          {status
            ? `No bookings in this status (${STATUS_NAMES[status].toLowerCase()}).`
            : 'No bookings yet: search for flights to make one.'}
        </p>
      )}
      {bookings.length > 0 && <BookingTable bookings={bookings} />}
      <Progress pending={pending} label="Loading bookings…" />
      {children}
    </>
  );
}

function BookingTable({ bookings }: { bookings: Booking[] }) {
  // Departures show in their airport's zone: asked once per airport not yet known.
  useZones([...new Set(bookings.map((b) => journeysOf(b)[0]?.segments[0]?.origin ?? ''))].filter(Boolean));
  return (
    <table class="bookings">
      <caption class="visually-hidden">The agency's bookings, newest first</caption>
      <thead>
        <tr>
          <th scope="col">PNR</th>
          <th scope="col">Status</th>
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
            <td>
              <StatusBadge status={booking.status} />
            </td>
            <td>{routeOf(booking)}</td>
            <td>
              <Departure booking={booking} />
            </td>
            <td>{booking.passengers.map((p) => `${p.first_name} ${p.last_name}`).join(', ')}</td>
            <td class="money">{formatMoney(booking.total_price, booking.currency)}</td>
            <td>{booking.created_by?.name ?? ''}</td>
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
