import { useEffect, useRef, useState } from 'preact/hooks';
import {
  airlineCreditLines,
  type Booking,
  cancelBooking,
  type RefundChanged,
  type RefundQuote,
  refundDestination,
  refundQuote,
  refundSentence,
} from '../bookings.ts';
import { ErrorNotice, Progress } from '../components.tsx';
import { formatMoney } from '../offers.ts';
import { useCall } from '../use-call.ts';

/** What a refused cancel means for the agent, said plainly. */
const CANCEL_REFUSALS: Record<string, string> = {
  NOT_CANCELLABLE:
    'This booking can no longer be cancelled: its first flight has departed, or it is no longer confirmed or held.',
  SERVICE_UNAVAILABLE:
    'The airline could not be asked just now. Nothing was cancelled; try again in a moment.',
};

const money = (m: { amount: number; currency: string }) => formatMoney(m.amount, m.currency);

/**
 * The quote, then the cancel at exactly its refund: an expired quote is asked again first; a refund
 * changed meanwhile replaces the quote, said in the notice rather than as an error.
 */
function useCancel(props: {
  booking: Booking;
  onCancelled: (booking: Booking) => void;
  onStale: () => void;
}) {
  const { booking, onCancelled, onStale } = props;
  const [quote, setQuote] = useState<RefundQuote>();
  const [changed, setChanged] = useState<RefundChanged>();
  const { pending, failure, setFailure, run } = useCall();

  const fetchQuote = async () => {
    const outcome = await run(() => refundQuote(booking.booking_id));
    if (outcome?.ok) setQuote(outcome.body.data);
  };

  const cancel = async () => {
    if (!quote) return;
    // An expired quote may not be what the supplier gives any more: a fresh one first, shown.
    if (quote.expires_at !== null && Date.parse(quote.expires_at) <= Date.now()) return fetchQuote();
    const outcome = await run(() => cancelBooking(booking.booking_id, quote.refund));
    if (!outcome) return;
    if (outcome.ok) return onCancelled(outcome.body.data);
    const { failure: refused } = outcome;
    if (refused.code === 'REFUND_CHANGED') {
      // Said in the notice, with the new quote in place: not an error to show.
      setFailure(undefined);
      const details = refused.details as RefundChanged;
      setChanged(details);
      setQuote(details.quote);
    } else if (refused.code === 'NOT_CANCELLABLE') onStale();
  };
  return { quote, changed, pending, failure, fetchQuote, cancel };
}

/** Where the quote's money goes, and the airline credits it gives, each with its code. */
function RefundWhere({ quote }: { quote: RefundQuote }) {
  const credits = airlineCreditLines(quote);
  return (
    <>
      <p class="refund-to">{refundDestination(quote)}</p>
      {credits.length > 0 && (
        <ul class="airline-credits">
          {credits.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * Cancel, in a modal dialog: first the refund a cancel now would give (the quote), then the cancel at
 * exactly that refund. If the refund changed meanwhile (`REFUND_CHANGED`), nothing was cancelled and
 * the dialog shows the new quote for the agent to accept or not.
 */
export function CancelDialog(props: {
  booking: Booking;
  onClose: () => void;
  onCancelled: (booking: Booking) => void;
  onStale: () => void;
}) {
  const { booking, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const held = booking.status === 'HELD';
  const { quote, changed, pending, failure, fetchQuote, cancel } = useCancel(props);

  useEffect(() => {
    dialog.current?.showModal();
    void fetchQuote();
  }, []);

  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="cancel-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="cancel-title">{held ? 'Cancel this hold?' : 'Cancel this booking?'}</h2>
      {quote && (
        <div aria-live="polite">
          <p>
            {held
              ? 'Nothing was paid for the hold, so there is nothing to refund. Its seats go back on sale.'
              : refundSentence(quote)}
          </p>
          {!held && <RefundWhere quote={quote} />}
        </div>
      )}
      {changed && (
        <p class="notice" role="status">
          The refund changed from {money(changed.previous_refund)} to{' '}
          {changed.refund ? money(changed.refund) : 'an amount the airline has not stated yet'}. Nothing was
          cancelled: check the new refund and cancel again, or keep the booking.
        </p>
      )}
      <ErrorNotice failure={failure}>{failure && CANCEL_REFUSALS[failure.code]}</ErrorNotice>
      <Progress pending={pending} label={quote ? 'Cancelling…' : 'Getting the refund quote…'} />
      <div class="row">
        <button type="button" class="danger" onClick={cancel} disabled={pending || !quote}>
          {held ? 'Cancel hold' : 'Cancel and refund'}
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Keep booking
        </button>
      </div>
    </dialog>
  );
}
