import { useRef, useState } from 'preact/hooks';
import {
  type Attempt,
  attemptFor,
  client,
  type Failure,
  type Schemas,
  settle,
  validationSummary,
} from '../api.ts';
import { ErrorNotice, Link } from '../components.tsx';
import { formatMoney, type Offer } from '../offers.ts';
import { navigate } from '../router.ts';
import { readStored, writeStored } from '../storage.ts';
import { useCall } from '../use-call.ts';
import { type Kept, keepBooked } from './booked.tsx';
import { NOTICE_KEY, OFFER_KEY, RESULTS_KEY, type StoredResults } from './search-form.ts';

/* Sending a booking and what its answer means: booked, gone, a new price, or why it was refused. */

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
 * Making the booking through the form's call hook (one at a time): one Idempotency-Key per attempt
 * (the same body sent again, a retry after no answer, keeps it, so it books once; a changed body is a
 * new attempt with a new key). A booking made is kept without its people; an offer gone goes back to
 * the results; a new price waits for the agent.
 */
export function useBooking(input: {
  body: (flight: Offer, hold: boolean) => Schemas['BookingCreateRequest'];
  setOffer: (offer: Offer) => void;
  setDone: (booking: Kept) => void;
}) {
  const [priceChange, setPriceChange] = useState<PriceChange>();
  const { pending, failure, run } = useCall();
  const attempt = useRef<Attempt>(undefined);

  const submit = async (hold: boolean, flight: Offer) => {
    const body = input.body(flight, hold);
    const outcome = await run(() => {
      setPriceChange(undefined);
      attempt.current = attemptFor(attempt.current, JSON.stringify(body), () => crypto.randomUUID());
      const key = attempt.current.key;
      return settle(
        client.POST('/api/flights/booking/create', { body, params: { header: { 'Idempotency-Key': key } } }),
      );
    });
    if (!outcome) return;
    if (outcome.ok) {
      const booking = outcome.body.data;
      keepBooked(booking);
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

/** Why the booking was refused: the fields at fault, or what the refusal means for the agent. */
export function BookingFailure({ failure, errors }: { failure: Failure; errors: Map<string, string> }) {
  return (
    <ErrorNotice failure={failure}>
      {failure.code === 'VALIDATION_ERROR'
        ? validationSummary(errors, (path) => /^passengers\.\d+\.|^contact\.(email|phone)$/.test(path))
        : (PLAIN[failure.code] ?? supplierMessage(failure) ?? failure.message)}
    </ErrorNotice>
  );
}

/** The offer's new price, for the agent to accept (booking again at it) or not. */
export function PriceChangeNotice(props: {
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
