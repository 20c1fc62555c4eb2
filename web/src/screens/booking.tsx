import { useEffect, useRef, useState } from 'preact/hooks';
import { useZones } from '../airports.ts';
import type { Failure, Schemas } from '../api.ts';
import {
  addNote,
  type Booking,
  confirmBooking,
  firstDeparture,
  getBooking,
  itineraryOf,
  journeysOf,
  type PriceChanged,
  refundLines,
  resendItinerary,
} from '../bookings.ts';
import { Countdown, ErrorNotice, Link, Progress, useNow } from '../components.tsx';
import { extrasLines } from '../fare.ts';
import { formatMoney, journeyName } from '../offers.ts';
import { yourTime } from '../time.ts';
import { useCall } from '../use-call.ts';
import { StatusBadge } from './bookings.tsx';
import { CancelDialog } from './cancel-dialog.tsx';
import { Changes } from './change-flights.tsx';
import { JourneyFares, PriceBreakdown } from './fare-details.tsx';
import { SliceView } from './results.tsx';

/** How often a PENDING booking is asked about until the supplier's answer settles it. */
const PENDING_POLL_MS = 2000;

/**
 * One booking (docs/console.md, Booking): status, PNR, journeys at local times, passengers, conditions;
 * a hold's deadline counting down with Confirm at the held price; Cancel through the refund quote,
 * never after the first departure.
 */
export function BookingScreen({ bookingId }: { bookingId: string }) {
  const [booking, setBooking] = useState<Booking>();
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(true);

  const reload = async () => {
    setPending(true);
    const outcome = await getBooking({ booking_id: bookingId });
    setPending(false);
    if (outcome.ok) {
      setBooking(outcome.body.data);
      setFailure(undefined);
    } else setFailure(outcome.failure);
  };

  useEffect(() => {
    setBooking(undefined);
    void reload();
  }, [bookingId]);

  // A PENDING booking (an outside supplier's answer not known yet) updates itself until it settles,
  // and so does a hold past its deadline until it reads EXPIRED (or the confirm that won, CONFIRMED).
  useEffect(() => {
    const lapsing =
      booking?.status === 'HELD' &&
      booking.payment_required_by !== undefined &&
      Date.parse(booking.payment_required_by) <= Date.now();
    if (booking?.status !== 'PENDING' && !lapsing) return;
    const timer = setTimeout(reload, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [booking]);

  if (!booking)
    return (
      <main id="main">
        <h1 tabIndex={-1}>Booking</h1>
        {failure?.code === 'NOT_FOUND' ? (
          <p class="notice" role="status">
            Your agency has no booking {bookingId}. <Link href="/bookings">All bookings</Link>
          </p>
        ) : (
          <ErrorNotice failure={failure} />
        )}
        <Progress pending={pending} label="Loading the booking…" />
      </main>
    );
  return <BookingView booking={booking} onChange={setBooking} onStale={reload} />;
}

function BookingView(props: { booking: Booking; onChange: (b: Booking) => void; onStale: () => void }) {
  const { booking, onChange, onStale } = props;
  const journeys = journeysOf(booking);
  useZones(journeys.flatMap((j) => j.segments.flatMap((s) => [s.origin, s.destination])));
  const now = useNow(30_000);
  const departure = firstDeparture(booking);
  const departed = departure !== undefined && Date.parse(departure) <= now;
  const cancellable = (booking.status === 'CONFIRMED' || booking.status === 'HELD') && !departed;
  const [cancelling, setCancelling] = useState(false);
  const [itinerary, setItinerary] = useState<Itinerary>();

  return (
    <main id="main" class={itinerary ? 'printing' : undefined}>
      {itinerary && <PrintView itinerary={itinerary} onClose={() => setItinerary(undefined)} />}
      <h1 tabIndex={-1}>
        Booking <span class="pnr">PNR {booking.pnr ?? '(not issued yet)'}</span>
      </h1>
      <p class="booking-status">
        <StatusBadge status={booking.status} /> {statusSentence(booking)}
      </p>
      {booking.status === 'PENDING' && (
        <p class="notice" role="status">
          Being confirmed by the airline: this page updates itself when the answer comes.
        </p>
      )}
      {booking.status === 'HELD' && <HoldPanel booking={booking} onChange={onChange} onStale={onStale} />}
      <JourneysSection booking={booking} journeys={journeys} />
      <PassengersSection booking={booking} />
      <PriceSection booking={booking} />
      <Changes booking={booking} onChanged={onChange} />
      <ItineraryActions booking={booking} onPrint={setItinerary} onChange={onChange} />
      <NotesSection booking={booking} onChange={onChange} />
      {cancellable && (
        <button type="button" class="danger" onClick={() => setCancelling(true)}>
          Cancel booking
        </button>
      )}
      {(booking.status === 'CONFIRMED' || booking.status === 'HELD') && departed && (
        <p class="hint">The first flight has departed: this booking can no longer be cancelled here.</p>
      )}
      {cancelling && (
        <CancelDialog
          booking={booking}
          onClose={() => setCancelling(false)}
          onCancelled={(cancelled) => {
            setCancelling(false);
            onChange(cancelled);
          }}
          onStale={() => {
            setCancelling(false);
            onStale();
          }}
        />
      )}
      <p>
        <Link href="/bookings">All bookings</Link>
      </p>
    </main>
  );
}

/**
 * The booked flights, journey by journey, with the cabin; then what was sold, as the Book screen said
 * it: per journey the fare brand, conditions with fees and bags included (the trip's otherwise).
 */
function JourneysSection({
  booking,
  journeys,
}: {
  booking: Booking;
  journeys: ReturnType<typeof journeysOf>;
}) {
  return (
    <section aria-labelledby="journeys-title">
      <h2 id="journeys-title">Flights</h2>
      {journeys.map((journey, index) => (
        <SliceView key={index} slice={journey} name={journeyName(booking.flight, index)} />
      ))}
      <p class="meta">{booking.flight.travel_class.replace('_', ' ').toLowerCase()}</p>
      <JourneyFares flight={booking.flight} />
    </section>
  );
}

/** Who travels, each with the seats and bags bought, and the booking's contact. */
function PassengersSection({ booking }: { booking: Booking }) {
  return (
    <section aria-labelledby="passengers-title">
      <h2 id="passengers-title">Passengers</h2>
      <ul>
        {booking.passengers.map((p, index) => {
          const extras = extrasLines(booking, index);
          return (
            <li key={index}>
              {p.title} {p.first_name} {p.last_name} · {p.pax_type.toLowerCase()} · born {p.born_on}
              {extras.length > 0 && (
                <ul
                  class="plain extras-bought"
                  aria-label={`Seats and bags of ${p.first_name} ${p.last_name}`}
                >
                  {extras.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <p>
        Contact: {booking.contact.email} · {booking.contact.phone}
      </p>
    </section>
  );
}

/**
 * What was paid (the Booking's own breakdown with its bags and seats when it has one, else the
 * flight's) and, once cancelled, what was refunded as stated; who booked and cancelled; the supplier's order.
 */
function PriceSection({ booking }: { booking: Booking }) {
  return (
    <section aria-labelledby="price-title">
      <h2 id="price-title">Price</h2>
      <p class="money">{formatMoney(booking.total_price, booking.currency)}</p>
      <PriceBreakdown
        lines={booking.price_breakdown ?? booking.flight.price_breakdown}
        total={booking.total_price}
        currency={booking.currency}
      />
      {refundLines(booking).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p class="meta">
        Booked {yourTime(booking.created_at)}
        {booking.created_by && ` by ${booking.created_by.name}`}
        {booking.cancelled_at &&
          ` · cancelled ${yourTime(booking.cancelled_at)}${
            booking.cancelled_by ? ` by ${booking.cancelled_by.name}` : ''
          }`}
        {booking.supplier?.order_id && ` · supplier order ${booking.supplier.order_id}`}
      </p>
    </section>
  );
}

function statusSentence(booking: Booking): string {
  switch (booking.status) {
    case 'CONFIRMED':
      return 'Ticketed.';
    case 'HELD':
      return 'Seats held, not paid: confirm before the deadline.';
    case 'PENDING':
      return 'Waiting for the airline.';
    case 'CANCELLED':
      return 'Cancelled; its seats are back on sale.';
    case 'EXPIRED':
      return 'The hold lapsed unpaid; its seats are back on sale.';
    case 'FAILED':
      return 'The airline did not accept the booking; nothing was charged.';
  }
}

/** What a refused confirm means for the agent, said plainly. */
const CONFIRM_REFUSALS: Record<string, string> = {
  HOLD_EXPIRED: 'The hold expired before it was confirmed: its seats are back on sale. Search again to book.',
  NOT_HELD:
    'This booking is no longer held: it was confirmed, cancelled or lapsed meanwhile. Shown as it is now.',
};

/** A hold: its deadline counting down, Confirm at the held price (or at a new one the supplier set). */
function HoldPanel(props: { booking: Booking; onChange: (b: Booking) => void; onStale: () => void }) {
  const { booking, onChange, onStale } = props;
  const [price, setPrice] = useState({ total_price: booking.total_price, currency: booking.currency });
  const [changed, setChanged] = useState<PriceChanged>();
  const { pending, failure, setFailure, run } = useCall();
  const [lapsed, setLapsed] = useState(false);
  // One Idempotency-Key per attempt at one price: a double click or a retry confirms once.
  const attempt = useRef<{ price: string; key: string } | undefined>(undefined);

  const confirm = async () => {
    const priceKey = `${price.total_price} ${price.currency}`;
    if (attempt.current?.price !== priceKey) attempt.current = { price: priceKey, key: crypto.randomUUID() };
    const key = attempt.current.key;
    const outcome = await run(() => confirmBooking(booking, price, key));
    if (!outcome) return;
    if (outcome.ok) return onChange(outcome.body.data);
    const { failure: refused } = outcome;
    if (refused.code === 'PRICE_CHANGED') {
      // Said in the notice, with the new price on the button: not an error to show.
      setFailure(undefined);
      const details = refused.details as PriceChanged;
      setChanged(details);
      setPrice({ total_price: details.total_price, currency: details.currency });
    } else if (refused.code === 'HOLD_EXPIRED' || refused.code === 'NOT_HELD') onStale();
  };

  const deadline = booking.payment_required_by;
  return (
    <section class="hold" aria-labelledby="hold-title">
      <h2 id="hold-title">Hold</h2>
      {deadline && (
        <HoldDeadline
          deadline={deadline}
          onLapsed={() => {
            setLapsed(true);
            onStale();
          }}
        />
      )}
      {changed && (
        <p class="notice" role="status">
          The price changed from {formatMoney(changed.previous_total_price, changed.currency)} to{' '}
          {formatMoney(changed.total_price, changed.currency)}. Confirm again to pay the new price.
        </p>
      )}
      {!lapsed && (
        <button type="button" onClick={confirm} disabled={pending}>
          Confirm {formatMoney(price.total_price, price.currency)}
        </button>
      )}
      <Progress pending={pending} label="Confirming…" />
      <ErrorNotice failure={failure}>{failure && CONFIRM_REFUSALS[failure.code]}</ErrorNotice>
    </section>
  );
}

/** When the hold must be confirmed by. Not a live region: a countdown would be read out every second. */
function HoldDeadline({ deadline, onLapsed }: { deadline: string; onLapsed: () => void }) {
  return (
    <p>
      Confirm by {yourTime(deadline)}:{' '}
      <Countdown until={deadline} expired="the deadline has passed" onExpired={onLapsed} /> left.
    </p>
  );
}

type Itinerary = Schemas['BookingItineraryResponse']['data'];

/** Print itinerary (a print view of what the confirmation e-mail says) and Resend itinerary. */
function ItineraryActions(props: {
  booking: Booking;
  onPrint: (itinerary: Itinerary) => void;
  onChange: (b: Booking) => void;
}) {
  const { booking, onPrint, onChange } = props;
  const printing = useCall();
  const resending = useCall();
  const [sentTo, setSentTo] = useState<string>();
  // The contact's address unless the agent types another (the traveller asked for it elsewhere).
  const [to, setTo] = useState(booking.contact.email);
  const print = async () => {
    const outcome = await printing.run(() => itineraryOf(booking.booking_id));
    if (outcome?.ok) onPrint(outcome.body.data);
  };
  const resend = async (event: Event) => {
    event.preventDefault();
    setSentTo(undefined);
    const address = to.trim() === '' ? booking.contact.email : to.trim();
    const other = address === booking.contact.email ? undefined : address;
    const outcome = await resending.run(() => resendItinerary(booking.booking_id, other));
    if (!outcome?.ok) return;
    onChange(outcome.body.data);
    setSentTo(address);
  };
  return (
    <section aria-labelledby="itinerary-title" class="itinerary-actions">
      <h2 id="itinerary-title">Itinerary</h2>
      <button type="button" class="secondary" onClick={print} disabled={printing.pending}>
        Print itinerary
      </button>
      <form class="inline-form" onSubmit={resend}>
        <label for="resend-to">Send itinerary to</label>
        <input
          id="resend-to"
          type="email"
          autocomplete="off"
          value={to}
          onInput={(event) => setTo(event.currentTarget.value)}
        />
        <button type="submit" class="secondary" disabled={resending.pending}>
          Resend itinerary
        </button>
      </form>
      <p role="status" class="notice-live">
        {sentTo ? `Itinerary sent to ${sentTo}.` : ''}
      </p>
      <ErrorNotice failure={printing.failure ?? resending.failure}>
        {resending.failure?.code === 'RATE_LIMITED'
          ? 'The itinerary was sent 5 times in the last hour: try again later.'
          : undefined}
      </ErrorNotice>
    </section>
  );
}

/**
 * The itinerary as printed: the e-mail's text, alone on paper (the print stylesheet hides the header,
 * navigation, buttons and the rest of the booking). Focus moves to it when it opens.
 */
function PrintView({ itinerary, onClose }: { itinerary: Itinerary; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [itinerary]);
  return (
    <section class="print-view" aria-labelledby="print-title">
      <h2 id="print-title" tabIndex={-1} ref={heading}>
        {itinerary.subject}
      </h2>
      <pre class="itinerary-text">{itinerary.text}</pre>
      <div class="inline-form no-print">
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Close print view
        </button>
      </div>
    </section>
  );
}

/** The agency's notes, oldest first, and Add note (never shown to the traveller). */
function NotesSection({ booking, onChange }: { booking: Booking; onChange: (b: Booking) => void }) {
  const [text, setText] = useState('');
  const { pending, failure, run } = useCall();
  const notes = booking.notes ?? [];
  const add = async (event: Event) => {
    event.preventDefault();
    if (text.trim() === '') return;
    const outcome = await run(() => addNote(booking.booking_id, text));
    if (!outcome?.ok) return;
    onChange(outcome.body.data);
    setText('');
  };
  return (
    <section aria-labelledby="notes-title" class="notes">
      <h2 id="notes-title">Notes</h2>
      {notes.length === 0 ? (
        <p class="meta">No notes yet. Notes are your agency's own: the traveller never sees them.</p>
      ) : (
        <ol class="note-list">
          {notes.map((note) => (
            <li key={note.id}>
              <p class="note-text">{note.text}</p>
              <p class="meta">
                {note.created_by.name}, <time dateTime={note.created_at}>{yourTime(note.created_at)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
      {notes.length < 50 && (
        <form class="add-note" onSubmit={add}>
          <label for="note-text">Note</label>
          <textarea
            id="note-text"
            rows={2}
            maxLength={1000}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit" disabled={pending || text.trim() === ''}>
            Add note
          </button>
          <ErrorNotice failure={failure} />
        </form>
      )}
    </section>
  );
}
