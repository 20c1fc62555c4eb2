import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  type Attempt,
  attemptFor,
  client,
  type Failure,
  fieldErrors,
  type Schemas,
  settle,
  validationSummary,
} from '../api.ts';
import { Countdown, ErrorNotice, Link, Progress } from '../components.tsx';
import { formatMoney, journeyName, type Offer, passengerTypes, slicesOf } from '../offers.ts';
import { navigate } from '../router.ts';
import { chosenExtras } from '../seats/choice.ts';
import { BagsAndSeats } from '../seats/hook.tsx';
import { readStored, useDraft, writeStored } from '../storage.ts';
import { todayHere } from '../time.ts';
import { SliceView } from './results.tsx';
import { FieldError, NOTICE_KEY, OFFER_KEY, RESULTS_KEY, type StoredResults } from './search.tsx';

type Booking = Schemas['Booking'];
interface PassengerDraft {
  title: string;
  first_name: string;
  last_name: string;
  gender: string;
  born_on: string;
}
interface BookDraft {
  passengers: PassengerDraft[];
  email: string;
  phone: string;
}

const emptyPassenger = (): PassengerDraft => ({
  title: '',
  first_name: '',
  last_name: '',
  gender: '',
  born_on: '',
});
const PAX_NAMES: Record<Schemas['Passenger']['pax_type'], string> = {
  ADULT: 'adult',
  CHILD: 'child (2–11)',
  INFANT: 'infant (under 2)',
};
/** How often a PENDING booking is asked about until the supplier's answer settles it. */
const PENDING_POLL_MS = 2000;
/** The booking just made, kept for the tab so a reload shows it again (without its people: {@link kept}). */
const DONE_KEY = 'book-done';

/**
 * A booking as the tab keeps it: nobody's name, birth date, e-mail or phone stays in storage once it
 * is made (docs/console.md); the screen asks for them again after a reload.
 */
type Kept = Omit<Booking, 'passengers' | 'contact' | 'created_by' | 'cancelled_by'> &
  Partial<Pick<Booking, 'passengers'>>;
const kept = ({ passengers, contact, created_by, cancelled_by, ...rest }: Booking): Kept => rest;

/** What a refusal means for the agent, where the service's message is not the whole story. */
const PLAIN: Record<string, string> = {
  HOLD_NOT_AVAILABLE:
    'This offer cannot be held: it departs too soon, or the airline wants payment now. Book it instead.',
  FLIGHT_MISMATCH: 'The offer changed since it was shown. Go back to the results and select it again.',
  IDEMPOTENCY_IN_PROGRESS: 'This booking is still being made. Wait a moment, then press the button again.',
};

/** Refusals that mean the offer is gone: back to the results, which no longer show it. */
const GONE: Record<string, string> = {
  SOLD_OUT: 'That offer sold out before it could be booked. Choose another one or search again.',
  OFFER_EXPIRED: 'That offer has expired or was already booked. Search again for current prices.',
  FLIGHT_NOT_FOUND: 'That offer is no longer known. Search again for current prices.',
};

interface PriceChange {
  previous: number;
  flight: Offer;
  hold: boolean;
}

/**
 * Making the booking: one Idempotency-Key per attempt (the same body sent again, a retry after no
 * answer, keeps it, so it books once; a changed body is a new attempt with a new key). A booking made
 * is kept without its people; an offer gone goes back to the results; a new price waits for the agent.
 */
function useBooking(input: {
  body: (flight: Offer, hold: boolean) => Schemas['BookingCreateRequest'];
  setOffer: (offer: Offer) => void;
  setDone: (booking: Kept) => void;
}) {
  const [failure, setFailure] = useState<Failure>();
  const [priceChange, setPriceChange] = useState<PriceChange>();
  const [pending, setPending] = useState(false);
  const attempt = useRef<Attempt>(undefined);
  const busy = useRef(false);

  const submit = async (hold: boolean, flight: Offer) => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    setFailure(undefined);
    setPriceChange(undefined);
    const body = input.body(flight, hold);
    attempt.current = attemptFor(attempt.current, JSON.stringify(body), () => crypto.randomUUID());
    const outcome = await settle(
      client.POST('/api/flights/booking/create', {
        body,
        params: { header: { 'Idempotency-Key': attempt.current.key } },
      }),
    );
    busy.current = false;
    setPending(false);
    if (outcome.ok) {
      const booking = outcome.body.data as Booking;
      writeStored(DONE_KEY, kept(booking));
      // The form's people are booked now: none of them stays in this tab's storage.
      writeStored('book', undefined);
      input.setDone(booking);
      return;
    }
    const { code, details } = outcome.failure;
    if (GONE[code]) return backToResults(flight, GONE[code]);
    if (code === 'PRICE_CHANGED') {
      const change = details as { previous_total_price: number; flight: Offer };
      setPriceChange({ previous: change.previous_total_price, flight: change.flight, hold });
    }
    setFailure(outcome.failure);
  };

  const acceptNewPrice = () => {
    if (!priceChange) return;
    writeStored(OFFER_KEY, priceChange.flight);
    input.setOffer(priceChange.flight);
    void submit(priceChange.hold, priceChange.flight);
  };
  return { failure, priceChange, pending, submit, acceptNewPrice };
}

/** An offer that is gone: the results without it, and `notice` saying why. */
function backToResults(flight: Offer, notice: string) {
  const results = readStored<StoredResults>(RESULTS_KEY);
  if (results)
    writeStored(RESULTS_KEY, { ...results, offers: results.offers.filter((o) => o.id !== flight.id) });
  writeStored(NOTICE_KEY, notice);
  writeStored(OFFER_KEY, undefined);
  navigate('/search');
}

export function BookScreen() {
  const [offer, setOffer] = useState<Offer | undefined>(() => readStored(OFFER_KEY));
  const [done, setDone] = useState<Kept | undefined>(() => {
    const stored = readStored<Kept>(DONE_KEY);
    return stored && stored.flight.id === offer?.id ? stored : undefined;
  });
  const types = offer ? passengerTypes(offer.passengers) : [];
  const [draft, setDraft] = useDraft<BookDraft>('book', () => ({ passengers: [], email: '', phone: '' }));
  const passengers = types.map((_, index) => draft.passengers[index] ?? emptyPassenger());
  const body = (flight: Offer, hold: boolean) => bookingRequest(flight, hold, passengers, types, draft);
  const { failure, priceChange, pending, submit, acceptNewPrice } = useBooking({ body, setOffer, setDone });

  if (!offer) return <NoOffer />;
  if (done) return <Booked booking={done} onUpdate={setDone} />;

  const setPassenger = (index: number, passenger: PassengerDraft) =>
    setDraft({ ...draft, passengers: passengers.map((p, i) => (i === index ? passenger : p)) });
  const errors = fieldErrors(failure);

  return (
    <main id="main">
      <h1 tabIndex={-1}>Book</h1>
      <ChosenOffer offer={offer} passengers={types.length} />
      <form
        noValidate
        aria-label="Passengers and contact"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(false, offer);
        }}
      >
        {types.map((type, index) => (
          <PassengerFields
            key={index}
            index={index}
            type={type}
            passenger={passengers[index] ?? emptyPassenger()}
            errors={errors}
            onChange={(passenger) => setPassenger(index, passenger)}
          />
        ))}
        <ContactFields draft={draft} errors={errors} onChange={setDraft} />
        <BagsAndSeats offer={offer} />
        <BookButtons pending={pending} onHold={() => void submit(true, offer)} />
      </form>
      <Progress pending={pending} label="Booking…" />
      {priceChange && (
        <PriceChangeNotice
          change={priceChange}
          failure={failure}
          pending={pending}
          onAccept={acceptNewPrice}
        />
      )}
      {failure && !priceChange && <BookingFailure failure={failure} errors={errors} />}
    </main>
  );
}

/** Book the offer now (the form's submit), or hold it. */
function BookButtons({ pending, onHold }: { pending: boolean; onHold: () => void }) {
  return (
    <>
      <button type="submit" disabled={pending}>
        Book
      </button>
      <button type="button" class="secondary" disabled={pending} onClick={onHold}>
        Hold
      </button>
    </>
  );
}

/** Where the book screen is reached with no offer chosen. */
function NoOffer() {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Book</h1>
      <p>
        No offer is chosen. <Link href="/search">Search flights</Link> and select one.
      </p>
    </main>
  );
}

/** The create request for `flight`: the offer as shown, its price, the passengers by type and the contact. */
function bookingRequest(
  flight: Offer,
  hold: boolean,
  passengers: PassengerDraft[],
  types: Schemas['Passenger']['pax_type'][],
  draft: BookDraft,
): Schemas['BookingCreateRequest'] {
  return {
    flight_id: flight.id,
    flight_details: flight,
    total_price: flight.total_price,
    currency: flight.currency,
    passengers: passengers.map((p, index) => ({ ...p, pax_type: types[index] })),
    contact: { email: draft.email.trim(), phone: draft.phone.trim() },
    ...(hold && { hold: true }),
    ...chosenExtras(flight),
  } as Schemas['BookingCreateRequest'];
}

/** Why the booking was refused: the fields at fault, or what the refusal means for the agent. */
function BookingFailure({ failure, errors }: { failure: Failure; errors: Map<string, string> }) {
  return (
    <ErrorNotice failure={failure}>
      {failure.code === 'VALIDATION_ERROR'
        ? validationSummary(errors, (path) => /^passengers\.\d+\.|^contact\.(email|phone)$/.test(path))
        : (PLAIN[failure.code] ?? supplierMessage(failure) ?? failure.message)}
    </ErrorNotice>
  );
}

/** The offer being booked: its price for everyone, its journeys, how long it stays valid. */
function ChosenOffer({ offer, passengers }: { offer: Offer; passengers: number }) {
  return (
    <section aria-label="Chosen offer" class="offer">
      <div>
        <h2>
          {formatMoney(offer.total_price, offer.currency)} for {passengers} passenger
          {passengers > 1 ? 's' : ''}
        </h2>
        {slicesOf(offer).map((slice, index) => (
          <SliceView key={index} slice={slice} name={journeyName(offer, index)} />
        ))}
      </div>
      <p class="side meta">
        Offer valid for <Countdown until={offer.expires_at} expired="no longer: it has expired" />
        <br />
        <Link href="/search">Back to results</Link>
      </p>
    </section>
  );
}

const TITLES = [
  ['mr', 'Mr'],
  ['mrs', 'Mrs'],
  ['ms', 'Ms'],
  ['miss', 'Miss'],
  ['dr', 'Dr'],
] as const;
const GENDERS = [
  ['f', 'Female'],
  ['m', 'Male'],
  ['x', 'Unspecified'],
] as const;

/** A select's options: none chosen first, then `choices` as value and label. */
function Options({ choices }: { choices: readonly (readonly [string, string])[] }) {
  return (
    <>
      <option value="">Choose…</option>
      {choices.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/** One passenger's fields, each with its error from the service. */
function PassengerFields(props: {
  index: number;
  type: Schemas['Passenger']['pax_type'];
  passenger: PassengerDraft;
  errors: Map<string, string>;
  onChange: (passenger: PassengerDraft) => void;
}) {
  const { index, type, passenger, errors, onChange } = props;
  const today = todayHere();
  const pathOf = (name: keyof PassengerDraft) => `passengers.${index}.${name}`;
  const field = (name: keyof PassengerDraft, label: string, input: (id: string) => JSX.Element) => {
    const id = pathOf(name).replaceAll('.', '-');
    return (
      <div>
        <label for={id}>{label}</label>
        {input(id)}
        <FieldError id={`${id}-error`} text={errors.get(pathOf(name))} />
      </div>
    );
  };
  const attrs = (name: keyof PassengerDraft) => {
    const id = pathOf(name).replaceAll('.', '-');
    return {
      id,
      value: passenger[name] ?? '',
      'aria-invalid': errors.has(pathOf(name)) ? ('true' as const) : undefined,
      'aria-describedby': `${id}-error`,
      onInput: (event: { currentTarget: { value: string } }) =>
        onChange({ ...passenger, [name]: event.currentTarget.value }),
    };
  };
  return (
    <fieldset>
      <legend>
        Passenger {index + 1} · {PAX_NAMES[type]}
      </legend>
      <div class="row">
        {field('title', 'Title', (id) => (
          <select {...attrs('title')} id={id}>
            <Options choices={TITLES} />
          </select>
        ))}
        {field('first_name', 'First name', (id) => (
          <input {...attrs('first_name')} id={id} autoComplete="off" maxLength={35} />
        ))}
        {field('last_name', 'Last name', (id) => (
          <input {...attrs('last_name')} id={id} autoComplete="off" maxLength={35} />
        ))}
        {field('gender', 'Gender', (id) => (
          <select {...attrs('gender')} id={id}>
            <Options choices={GENDERS} />
          </select>
        ))}
        {field('born_on', 'Date of birth', (id) => (
          <input {...attrs('born_on')} id={id} type="date" max={today} />
        ))}
      </div>
    </fieldset>
  );
}

/** The booking's contact: e-mail and phone. */
function ContactFields(props: {
  draft: BookDraft;
  errors: Map<string, string>;
  onChange: (draft: BookDraft) => void;
}) {
  const { draft, errors, onChange } = props;
  return (
    <fieldset>
      <legend>Contact</legend>
      <div class="row">
        {(
          [
            ['email', 'Contact e-mail', 'email', ''],
            ['phone', 'Contact phone', 'tel', '+447700900123'],
          ] as const
        ).map(([name, label, mode, placeholder]) => (
          <div key={name}>
            <label for={`contact-${name}`}>{label}</label>
            <input
              id={`contact-${name}`}
              inputMode={mode}
              autoComplete="off"
              placeholder={placeholder}
              value={draft[name]}
              onInput={(event) => onChange({ ...draft, [name]: event.currentTarget.value })}
              aria-invalid={errors.has(`contact.${name}`) ? 'true' : undefined}
              aria-describedby={`contact-${name}-error`}
            />
            <FieldError id={`contact-${name}-error`} text={errors.get(`contact.${name}`)} />
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** The offer's new price, for the agent to accept (booking again at it) or not. */
function PriceChangeNotice(props: {
  change: PriceChange;
  failure: Failure | undefined;
  pending: boolean;
  onAccept: () => void;
}) {
  const { change, failure, pending, onAccept } = props;
  return (
    <div class="notice" role="alert">
      <p>
        The price changed from <strong>{formatMoney(change.previous, change.flight.currency)}</strong> to{' '}
        <strong>{formatMoney(change.flight.total_price, change.flight.currency)}</strong>.
      </p>
      <button type="button" onClick={onAccept} disabled={pending}>
        Accept new price
      </button>
      <Link href="/search">Back to results</Link>
      {failure?.requestId && <p class="request-id">Request id: {failure.requestId}</p>}
    </div>
  );
}

/** A supplier's refusal with its reasons (422 SUPPLIER_REJECTED details). */
function supplierMessage(failure: Failure): string | undefined {
  if (failure.code !== 'SUPPLIER_REJECTED' || !Array.isArray(failure.details)) return undefined;
  const reasons = (failure.details as { message?: unknown }[])
    .map((detail) => (typeof detail.message === 'string' ? detail.message : ''))
    .filter(Boolean);
  return `The airline refused the booking: ${reasons.join(' ') || failure.message}`;
}

/** A deadline in the agent's own zone, labelled. */
const deadlineFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

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
        const fresh = outcome.body.data as Booking;
        writeStored(DONE_KEY, kept(fresh));
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
function Booked({ booking, onUpdate }: { booking: Kept; onUpdate: (booking: Kept) => void }) {
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
            Held until {deadlineFormat.format(new Date(booking.payment_required_by))} (your time): confirm it
            before then (
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
