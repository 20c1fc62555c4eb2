import { useRef, useState } from 'preact/hooks';
import { client, type Outcome, type Schemas, settle } from '../api.ts';
import { type Booking, firstDeparture, journeysOf } from '../bookings.ts';
import { ErrorNotice, ISO_DATE_INPUT, Progress, useNow } from '../components.tsx';
import { formatMoney, journeyName, type Offer } from '../offers.ts';
import { yourTime } from '../time.ts';
import { useCall } from '../use-call.ts';
import { SliceView } from './results.tsx';

/** A change offer (docs/API.md §4.9): the trip as it would be, and what the change costs. */
type ChangeOffer = Schemas['BookingChangeSearchResponse']['data'][number];
type Money = { amount: number; currency: string };

const money = (m: Money) => formatMoney(m.amount, m.currency);
/** A penalty or fare difference an external supplier may leave unstated (null). */
const stated = (m: Money | null) => (m ? money(m) : 'not stated');
/** Money back is said as such, never as a negative price. */
const totalSentence = (total: Money) =>
  total.amount < 0 ? `Money back: ${money({ ...total, amount: -total.amount })}` : `To pay: ${money(total)}`;

/** What a refused change means for the agent, said plainly. */
const REFUSALS: Record<string, string> = {
  NOT_CHANGEABLE:
    'This booking cannot be changed: the fare of a journey allows no change, the journey has departed, or the booking is no longer confirmed.',
  OFFER_EXPIRED: 'These change offers have expired, or the booking changed meanwhile. Find changes again.',
  SOLD_OUT: 'The new flight has no seat left for the passengers. Find changes again.',
};

function searchChanges(booking: Booking, journeys: { index: number; departure_date: string }[]) {
  return settle(
    client.POST('/api/flights/booking/change-search', {
      body: { booking_id: booking.booking_id, journeys, limit: 20 },
    }),
  );
}

function confirmChange(
  booking: Booking,
  offer: ChangeOffer,
  key: string,
): Promise<Outcome<{ data: Booking }>> {
  return settle(
    client.POST('/api/flights/booking/change', {
      body: { booking_id: booking.booking_id, change_offer_id: offer.id, change_total: offer.change_total },
      params: { header: { 'Idempotency-Key': key } },
    }),
  );
}

/**
 * The booking's changes (CONSOLE.md "Changes"): its `changes` history, and for a confirmed booking not
 * yet departed **Change flights** → journeys and new dates → change offers (penalty, fare difference,
 * total; money back said as such) → **Confirm change**.
 */
export function Changes(props: { booking: Booking; onChanged: (booking: Booking) => void }) {
  const { booking } = props;
  const [open, setOpen] = useState(false);
  const now = useNow(30_000);
  const departure = firstDeparture(booking);
  const changeable = booking.status === 'CONFIRMED' && departure !== undefined && Date.parse(departure) > now;
  return (
    <>
      <ChangesHistory booking={booking} />
      {changeable && !open && (
        <button type="button" class="secondary" onClick={() => setOpen(true)}>
          Change flights
        </button>
      )}
      {changeable && open && (
        <ChangePanel
          booking={booking}
          onClose={() => setOpen(false)}
          onChanged={(changed) => {
            setOpen(false);
            props.onChanged(changed);
          }}
        />
      )}
    </>
  );
}

/** Each change so far: when, by whom, the flights before and after, and what it cost. */
function ChangesHistory({ booking }: { booking: Booking }) {
  const changes = booking.changes ?? [];
  if (changes.length === 0) return null;
  const flights = (segments: { flight_number: string; departure_at: string }[]) =>
    segments.map((s) => `${s.flight_number} ${s.departure_at.slice(0, 10)}`).join(', ');
  return (
    <section aria-labelledby="changes-title">
      <h2 id="changes-title">Changes</h2>
      <ol>
        {changes.map((change, index) => (
          <li key={index}>
            {yourTime(change.at)} by {change.by.name}: {flights(change.from)} → {flights(change.to)} ·{' '}
            {totalSentence(change.change_total)}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Which journeys move, and to which day: each journey's checkbox and its new date. */
function JourneyPicker(props: {
  booking: Booking;
  picked: Record<number, string>;
  onPick: (picked: Record<number, string>) => void;
}) {
  const { booking, picked, onPick } = props;
  return (
    <fieldset>
      <legend>Journeys to change</legend>
      {journeysOf(booking).map((journey, index) => {
        const name = journeyName(booking.flight as Offer, index);
        const date = picked[index];
        const booked = journey.segments[0]?.departure_at.slice(0, 10) ?? '';
        return (
          <div class="row" key={index}>
            <label>
              <input
                type="checkbox"
                checked={date !== undefined}
                onChange={(event) => {
                  const { [index]: _, ...rest } = picked;
                  onPick(event.currentTarget.checked ? { ...picked, [index]: booked } : rest);
                }}
              />{' '}
              Change {name}
            </label>
            {date !== undefined && (
              <label>
                New date for {name}{' '}
                <input
                  {...ISO_DATE_INPUT}
                  value={date}
                  onInput={(event) => onPick({ ...picked, [index]: event.currentTarget.value })}
                />
              </label>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** One change offer: the trip as it would be, the penalty, the fare difference and the total. */
function OfferChoice(props: {
  booking: Booking;
  offer: ChangeOffer;
  index: number;
  checked: boolean;
  onPick: () => void;
}) {
  const { booking, offer, index, checked, onPick } = props;
  return (
    <li class="offer">
      <label>
        <input type="radio" name="change-offer" checked={checked} onChange={onPick} /> Change offer{' '}
        {index + 1}: {totalSentence(offer.change_total)}
      </label>
      <p class="meta">
        Penalty {stated(offer.penalty)} · fare difference {stated(offer.fare_difference)}
      </p>
      {(offer.flight as Offer).slices?.map((slice, j) => (
        <SliceView key={j} slice={slice} name={journeyName(booking.flight as Offer, j)} />
      ))}
    </li>
  );
}

/** The change's state: journeys picked, offers found, the one chosen, and a total that moved. */
function useChange(booking: Booking, onChanged: (booking: Booking) => void) {
  const journeys = journeysOf(booking);
  const only = journeys.length === 1 ? journeys[0]?.segments[0]?.departure_at.slice(0, 10) : undefined;
  const [picked, setPicked] = useState<Record<number, string>>(only ? { 0: only } : {});
  const [found, setFound] = useState<ChangeOffer[]>();
  const [chosen, setChosen] = useState(0);
  const [moved, setMoved] = useState<Money>();
  const call = useCall();
  // One Idempotency-Key per attempt at one offer: a double press or a retry changes once.
  const attempt = useRef<{ offer: string; key: string } | undefined>(undefined);

  const find = async () => {
    const asked = Object.entries(picked).map(([index, date]) => ({
      index: Number(index),
      departure_date: date,
    }));
    const outcome = await call.run(() => searchChanges(booking, asked));
    if (!outcome?.ok) return;
    setFound(outcome.body.data);
    setChosen(0);
    setMoved(undefined);
  };
  const confirm = async () => {
    const offer = found?.[chosen];
    if (!offer) return;
    if (attempt.current?.offer !== offer.id) attempt.current = { offer: offer.id, key: crypto.randomUUID() };
    const key = attempt.current.key;
    const outcome = await call.run(() => confirmChange(booking, offer, key));
    if (!outcome) return;
    if (outcome.ok) return onChanged(outcome.body.data);
    if (outcome.failure.code === 'PRICE_CHANGED') {
      // Said in the notice, with the fresh offer in place: not an error to show.
      call.setFailure(undefined);
      const fresh = (outcome.failure.details as { change_offer: ChangeOffer }).change_offer;
      setMoved(offer.change_total);
      setFound(found?.map((o, i) => (i === chosen ? fresh : o)));
    } else if (outcome.failure.code === 'OFFER_EXPIRED') setFound(undefined);
  };
  return { picked, setPicked, found, chosen, setChosen, moved, find, confirm, ...call };
}

/** The offers found, one to choose; a total that moved said in a notice; Confirm change. */
function OfferList(props: { booking: Booking; change: ReturnType<typeof useChange> }) {
  const { booking, change } = props;
  const { found, chosen, moved } = change;
  if (!found) return null;
  if (found.length === 0)
    return (
      <p class="notice" role="status">
        No flights on those dates fit this trip. Try other dates.
      </p>
    );
  const current = found[chosen];
  return (
    <>
      <fieldset>
        <legend>Change offers</legend>
        <ul class="offers">
          {found.map((offer, index) => (
            <OfferChoice
              key={offer.id}
              booking={booking}
              offer={offer}
              index={index}
              checked={index === chosen}
              onPick={() => change.setChosen(index)}
            />
          ))}
        </ul>
      </fieldset>
      {moved && current && (
        <p class="notice" role="status">
          The change total moved from {money(moved)} to {money(current.change_total)}. Confirm again to change
          at the new total.
        </p>
      )}
      <button type="button" onClick={change.confirm} disabled={change.pending}>
        Confirm change
      </button>
    </>
  );
}

/** The change in steps: pick the journeys and dates, find, choose, confirm. */
function ChangePanel(props: {
  booking: Booking;
  onClose: () => void;
  onChanged: (booking: Booking) => void;
}) {
  const { booking, onClose } = props;
  const change = useChange(booking, props.onChanged);
  const dates = Object.values(change.picked);
  return (
    <section aria-labelledby="change-title">
      <h2 id="change-title">Change flights</h2>
      <JourneyPicker booking={booking} picked={change.picked} onPick={change.setPicked} />
      <div class="row">
        <button
          type="button"
          onClick={change.find}
          disabled={change.pending || dates.length === 0 || dates.some((d) => !d)}
        >
          Find changes
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Keep flights
        </button>
      </div>
      <OfferList booking={booking} change={change} />
      <Progress pending={change.pending} label="Working on the change…" />
      <ErrorNotice failure={change.failure}>{change.failure && REFUSALS[change.failure.code]}</ErrorNotice>
    </section>
  );
}
