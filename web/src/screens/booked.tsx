import { useEffect, useState } from 'preact/hooks';
import { client, type Failure, type Schemas, settle } from '../api.ts';
import { Countdown, ErrorNotice, Link } from '../components.tsx';
import { formatMoney } from '../offers.ts';
import { readStored, writeStored } from '../storage.ts';
import { yourTime } from '../time.ts';

/** The booking just made on the Book screen, until the agent moves on. */
type Booking = Schemas['Booking'];

/** How often a PENDING booking is asked about until the supplier's answer settles it. */
const PENDING_POLL_MS = 2000;
/** The booking just made, kept for the tab so a reload shows it again (without its people: {@link Kept}). */
const DONE_KEY = 'book-done';

/**
 * A booking as the tab keeps it: nobody's name, birth date, e-mail or phone stays in storage once it
 * is made (docs/console.md); the screen asks for them again after a reload.
 */
export type Kept = Omit<Booking, 'passengers' | 'contact' | 'created_by' | 'cancelled_by'> &
  Partial<Pick<Booking, 'passengers'>>;
const kept = ({ passengers, contact, created_by, cancelled_by, ...rest }: Booking): Kept => rest;

/** Keeps `booking` for the tab, without its people. */
export const keepBooked = (booking: Booking): void => writeStored(DONE_KEY, kept(booking));

/** The booking kept for the tab, if it was made from the offer `offerId`. */
export function readBooked(offerId: string | undefined): Kept | undefined {
  const stored = readStored<Kept>(DONE_KEY);
  return stored && stored.flight.id === offerId ? stored : undefined;
}

/**
 * Asks about `booking` until it is settled and named: every {@link PENDING_POLL_MS} while PENDING, at
 * once when restored from storage without its passengers. What the last ask failed with, if it did.
 */
function useBookingUpdates(booking: Kept, onUpdate: (booking: Kept) => void): Failure | undefined {
  const [failure, setFailure] = useState<Failure>();
  const pendingNow = booking.status === 'PENDING';
  const named = booking.passengers !== undefined;
  useEffect(() => {
    if (!pendingNow && named) return;
    const timer = setTimeout(
      async () => {
        const outcome = await settle(
          client.POST('/api/flights/booking/get', { body: { booking_id: booking.booking_id } }),
        );
        if (!outcome.ok) return setFailure(outcome.failure);
        const fresh = outcome.body.data;
        keepBooked(fresh);
        // A new object even when still PENDING, so this effect asks again.
        onUpdate({ ...fresh });
      },
      named ? PENDING_POLL_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [booking, pendingNow, named, onUpdate]);
  return failure;
}

/**
 * The booking just made; a PENDING one is asked about until the supplier's answer settles it, and one
 * restored from storage (without its passengers) at once, for their names.
 */
export function Booked({ booking, onUpdate }: { booking: Kept; onUpdate: (booking: Kept) => void }) {
  const failure = useBookingUpdates(booking, onUpdate);
  const pendingNow = booking.status === 'PENDING';
  const heading =
    booking.status === 'CONFIRMED'
      ? 'Booked'
      : booking.status === 'HELD'
        ? 'Held'
        : booking.status === 'PENDING'
          ? 'Being confirmed'
          : `Booking ${booking.status.toLowerCase()}`;
  return (
    <main id="main">
      <h1 tabIndex={-1}>{heading}</h1>
      <div class="notice">
        {/* Announced when a PENDING booking settles; the countdown below stays out of it. */}
        <div role="status">
          <p>
            Status <span class="badge">{booking.status}</span>
          </p>
          {booking.pnr && (
            <p>
              PNR <strong>{booking.pnr}</strong>
            </p>
          )}
        </div>
        {pendingNow && (
          <p>
            The airline is confirming this booking; this page updates itself when it answers.{' '}
            <span class="spinner" aria-hidden="true" />
          </p>
        )}
        {booking.status === 'HELD' && booking.payment_required_by && (
          <p>
            Held until {yourTime(booking.payment_required_by)}: confirm it before then (
            <Countdown until={booking.payment_required_by} expired="the hold has lapsed" /> left).
          </p>
        )}
        {booking.status === 'FAILED' && <p>The airline did not accept this booking; nothing was charged.</p>}
        <p>
          {formatMoney(booking.total_price, booking.currency)}
          {booking.passengers &&
            ` · ${booking.passengers.map((p) => `${p.first_name} ${p.last_name}`).join(', ')}`}
        </p>
      </div>
      <ErrorNotice failure={failure} />
      <p>
        <Link href={`/bookings/${encodeURIComponent(booking.booking_id)}`}>Open the booking</Link> ·{' '}
        <Link href="/search">New search</Link>
      </p>
    </main>
  );
}
