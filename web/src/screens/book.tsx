import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useZones, zoneOf } from '../airports.ts';
import { fieldErrors, type Schemas } from '../api.ts';
import { Countdown, focusFirstInvalid, Link, Progress } from '../components.tsx';
import {
  airportsOf,
  formatMoney,
  holdLength,
  journeyName,
  type Offer,
  passengerTypes,
  slicesOf,
} from '../offers.ts';
import { normalisePhone } from '../phone.ts';
import { chosenExtras } from '../seats/choice.ts';
import { BagsAndSeats } from '../seats/hook.tsx';
import { readStored, useDraft } from '../storage.ts';
import { localTime } from '../time.ts';
import { BookingFailure, PriceChangeNotice, useBooking } from './book-outcome.tsx';
import { Booked, type Kept, readBooked } from './booked.tsx';
import { FareDetails } from './fare-details.tsx';
import {
  type BookDraft,
  ContactFields,
  draftProblems,
  emptyPassenger,
  type PassengerDraft,
  PassengerFields,
} from './passenger-fields.tsx';
import { SliceView } from './results.tsx';
import { OFFER_KEY } from './search-form.ts';

type PaxType = Schemas['Passenger']['pax_type'];

/**
 * Book (docs/console.md): the chosen offer and what it sells, one block per searched passenger, the
 * contact, Book or Hold; then the booking made. Its parts: passenger-fields.tsx (the form and the
 * page's own checks), fare-details.tsx (what is sold), book-outcome.tsx (sending and the answer),
 * booked.tsx (the booking made).
 */
export function BookScreen() {
  const [offer, setOffer] = useState<Offer | undefined>(() => readStored(OFFER_KEY));
  const [done, setDone] = useState<Kept | undefined>(() => readBooked(offer?.id));
  if (!offer) return <NoOffer />;
  if (done) return <Booked booking={done} onUpdate={setDone} />;
  return <BookForm offer={offer} setOffer={setOffer} setDone={setDone} />;
}

/** The day of the first departure at its airport (`YYYY-MM-DD`): the day ages are counted on. */
function firstDepartureDate(offer: Offer): string {
  const first = slicesOf(offer)[0]?.segments[0];
  return first ? localTime(first.departure_at, zoneOf(first.origin)).date : '';
}

/**
 * The form's state and its sending: the page checks it first (every field, ages against the first
 * departure) and moves the focus to the first wrong field; the service's field errors do the same.
 */
function useBookForm(offer: Offer, setOffer: (offer: Offer) => void, setDone: (booking: Kept) => void) {
  const types = passengerTypes(offer.passengers);
  const [draft, setDraft] = useDraft<BookDraft>('book', () => ({ passengers: [], email: '', phone: '' }));
  const passengers = types.map((_, index) => draft.passengers[index] ?? emptyPassenger());
  const body = (flight: Offer, hold: boolean) => bookingRequest(flight, hold, passengers, types, draft);
  const booking = useBooking({ body, setOffer, setDone });
  const [checked, setChecked] = useState<Map<string, string>>(new Map());
  const form = useRef<HTMLFormElement>(null);
  const errors = checked.size > 0 ? checked : fieldErrors(booking.failure);
  useEffect(() => {
    if (booking.failure?.code === 'VALIDATION_ERROR') focusFirstInvalid(form.current);
  }, [booking.failure]);

  const send = (hold: boolean) => {
    const problems = draftProblems(passengers, types, draft, firstDepartureDate(offer));
    setChecked(problems);
    if (problems.size > 0) return focusFirstInvalid(form.current);
    void booking.submit(hold, offer);
  };
  const setPassenger = (index: number, passenger: PassengerDraft) =>
    setDraft({ ...draft, passengers: passengers.map((p, i) => (i === index ? passenger : p)) });
  return { types, draft, setDraft, passengers, setPassenger, booking, errors, form, send };
}

function BookForm(props: {
  offer: Offer;
  setOffer: (offer: Offer) => void;
  setDone: (booking: Kept) => void;
}) {
  const { offer } = props;
  const { types, draft, setDraft, passengers, setPassenger, booking, errors, form, send } = useBookForm(
    offer,
    props.setOffer,
    props.setDone,
  );
  useZones(useMemo(() => airportsOf([offer]), [offer]));
  const [expired, setExpired] = useState(() => Date.parse(offer.expires_at) <= Date.now());
  const holdMs = useMemo(() => holdLength(offer, Date.now()), [offer]);
  const { pending } = booking;
  return (
    <main id="main">
      <h1 tabIndex={-1}>Book</h1>
      <ChosenOffer offer={offer} passengers={types.length} onExpired={() => setExpired(true)} />
      <FareDetails offer={offer} holdMs={holdMs} />
      <form
        ref={form}
        noValidate
        aria-label="Passengers and contact"
        onSubmit={(event) => {
          event.preventDefault();
          send(false);
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
        <BookButtons
          pending={pending}
          expired={expired}
          canHold={holdMs !== undefined}
          onHold={() => send(true)}
        />
      </form>
      <Outcome booking={booking} errors={errors} />
    </main>
  );
}

/** The booking under way, a price that moved, or why it was refused. */
function Outcome({
  booking,
  errors,
}: {
  booking: ReturnType<typeof useBooking>;
  errors: Map<string, string>;
}) {
  const { failure, priceChange, pending } = booking;
  return (
    <>
      <Progress pending={pending} label="Booking…" />
      {priceChange && (
        <PriceChangeNotice
          change={priceChange}
          failure={failure}
          pending={pending}
          onAccept={booking.acceptNewPrice}
        />
      )}
      {failure && !priceChange && <BookingFailure failure={failure} errors={errors} />}
    </>
  );
}

/**
 * Book the offer now (the form's submit), or hold it where a hold would be accepted; neither once the
 * offer has expired, with the way back to the results instead.
 */
function BookButtons(props: { pending: boolean; expired: boolean; canHold: boolean; onHold: () => void }) {
  const { pending, expired, canHold, onHold } = props;
  return (
    <>
      {expired && (
        <p class="notice" role="alert">
          This offer has expired: it can no longer be booked. <Link href="/search">Back to results</Link> to
          search again.
        </p>
      )}
      <button type="submit" disabled={pending || expired}>
        Book
      </button>
      {canHold && (
        <button type="button" class="secondary" disabled={pending || expired} onClick={onHold}>
          Hold
        </button>
      )}
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
  types: PaxType[],
  draft: BookDraft,
): Schemas['BookingCreateRequest'] {
  return {
    flight_id: flight.id,
    flight_details: flight,
    total_price: flight.total_price,
    currency: flight.currency,
    passengers: passengers.map((p, index) => ({ ...p, born_on: p.born_on.trim(), pax_type: types[index] })),
    contact: { email: draft.email.trim(), phone: normalisePhone(draft.phone) },
    ...(hold && { hold: true }),
    ...chosenExtras(flight),
  } as Schemas['BookingCreateRequest'];
}

/** The offer being booked: its price for everyone, its journeys, how long it stays valid. */
function ChosenOffer(props: { offer: Offer; passengers: number; onExpired: () => void }) {
  const { offer, passengers, onExpired } = props;
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
        Offer valid for{' '}
        <Countdown until={offer.expires_at} expired="no longer: it has expired" onExpired={onExpired} />
        <br />
        <Link href="/search">Back to results</Link>
      </p>
    </section>
  );
}
