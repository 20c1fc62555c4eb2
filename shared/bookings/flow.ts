import type { FlightView } from '../flights/flight-view.ts';
import type { Logger } from '../log.ts';
import type { BookingSupplier, ChosenSeat, OrdersSupplier, RefundTo, SupplierOffer } from '../supply/port.ts';
import type { BookingDeps } from './entity/booking.ts';
import type { BookingRecord, BookingView } from './entity/booking-item.ts';
import type { IdempotencyLock } from './entity/idempotency-item.ts';
import type { RefundQuoteView } from './refund-quote.ts';

/**
 * What booking does differently by the kind of supplier it has (shared/supply/port.ts): in the table
 * (in-table-flow.ts, in-table-offer-flow.ts) or around outside calls (each part beside its code:
 * supply/remote/order.ts, supply/remote/confirm.ts, supply/remote/cancel.ts, supply/remote/hold.ts, refund-quote.ts, sweep.ts).
 * Each function's supplier part is paired with its part of the flow where the stage's adapter is chosen
 * (shared/offer-context.ts, shared/order-context.ts), so route code calls these and never asks which
 * supplier it has — and a network stage's bundle carries no remote flow.
 */

/** An offer opened by create's flow: the supplier's offer, and how this booking orders it. */
export interface BookableOffer extends SupplierOffer {
  /**
   * Orders `record` (CONFIRMED or HELD as it would be made, its seats filled in here) and answers the
   * booking made, with `lock`'s answer stored in the same write. Throws what the order met.
   */
  book(
    deps: OfferDeps,
    record: BookingRecord,
    lock: IdempotencyLock | undefined,
    seats?: readonly ChosenSeat[],
  ): Promise<BookingView>;
}

/** Create's flow: opens offers this flow can book. */
export interface OfferFlow {
  open(flightId: string): BookableOffer | undefined;
}

/** What confirm hands its flow: the hold, the price sent, and the key's lock. */
export interface HoldConfirm {
  readonly record: BookingRecord;
  readonly price: { readonly total_price: number; readonly currency: string };
  /** The request's Idempotency-Key, whose answer the confirm's write stores (none without a key). */
  readonly lock: IdempotencyLock | undefined;
}

/** A cancel as the route hands it to its flow: who, when, and the refund expected, if any. */
interface CancelRequest {
  /** What our own rule refunds (refund-quote.ts, ownRefundQuote); undefined when the supplier quotes. */
  readonly own: RefundQuoteView | undefined;
  readonly at: string;
  readonly by: { id: string; name: string };
  readonly expected: { amount: number; currency: string } | undefined;
}

/** The flow of everything after create: confirm, cancel, expiry, refund quote, the sweep. */
/** A late hold's end as its flow decides it (OrderFlow.endLateHold). */
export type LateHoldEnd = { readonly expire: true; readonly leftCall?: string } | { readonly expire: false };

export interface OrderFlow {
  /**
   * Confirms a HELD hold in time; throws the conditioned write's failure when it changed meanwhile.
   * `changed`: another call held the hold and it is no longer one to confirm (the booking as read),
   * for confirm to answer.
   */
  confirmHold(deps: FlowDeps, request: HoldConfirm): Promise<BookingView | { changed: BookingRecord }>;
  /** Confirm's check of the price sent against a HELD hold's, before anything is written. */
  checkHeldPrice(record: BookingRecord, price: HoldConfirm['price']): void;
  /**
   * Cancels a CONFIRMED or HELD booking in time, answering it cancelled; 'busy' when another call holds
   * it. Throws the conditioned write's failure when it changed meanwhile.
   */
  cancel(
    deps: FlowDeps,
    record: BookingRecord & { status: 'CONFIRMED' | 'HELD' },
    request: CancelRequest,
  ): Promise<BookingView | 'busy'>;
  /** The refund a CONFIRMED booking gets by our own rule; undefined when its supplier quotes it. */
  ownRefund(record: BookingRecord): RefundQuoteView | undefined;
  /** The refund a cancel of a CONFIRMED booking would give now, changing nothing. */
  quoteRefund(record: BookingRecord): Promise<RefundQuoteView>;
  /**
   * How a late hold ends: expire it now (EXPIRED, seats back; `leftCall`, the supplier call whose lost
   * answer this settles), or not here (its supplier says it was paid, or it is left for the next sweep).
   * The flow only decides; the caller writes the expiry (holds.ts).
   */
  endLateHold(deps: FlowDeps, record: BookingRecord): Promise<LateHoldEnd>;
  /**
   * A hold's call to its supplier, which only the flow knows of: one under way ('live'), one whose
   * answer was lost ('left'), or none (never any in the table).
   */
  holdCall(record: BookingRecord, now: number): 'live' | 'left' | undefined;
  /** The sweep's part for bookings whose order's outcome is not known yet (supply/remote/order.ts). */
  sweepPending(deps: FlowDeps & { log: Logger }): Promise<SweepResult>;
  /** The sweep's part for calls whose answers were lost (supply/remote/left-calls.ts). */
  settleLeftCalls(deps: FlowDeps & { log: Logger }): Promise<LeftCallsResult>;
}

export interface SweepResult {
  confirmed: number;
  /** Hold orders found unpaid: the booking is HELD until its deadline (docs/API.md §4.4). */
  held: number;
  failed: number;
  waiting: number;
}

export interface LeftCallsResult {
  /** Cancellations the supplier made whose booking is now CANCELLED. */
  cancelled: number;
  /** Payments the supplier took whose hold is now CONFIRMED. */
  confirmed: number;
  /** Changes the supplier confirmed whose booking now has them (supply/remote/change.ts). */
  changed: number;
  /** Calls that changed nothing at the supplier: cleared, the booking as it was. */
  cleared: number;
  /** The supplier did not answer: the next run asks again. */
  waiting: number;
}

/** Create's dependencies: the supplier's offers, and the flow that books them. */
export type OfferDeps = BookingDeps<BookingSupplier> & { readonly offerFlow: OfferFlow };
/** What a flow's methods are given: the table, the clock and the supplier's orders. */
type FlowDeps = BookingDeps<OrdersSupplier>;

/**
 * Each function's part of the flow (as each takes its part of the port): a function is bundled with
 * the code of its part only, so that the refund quote carries no confirm nor the sweep's work.
 */
export type ConfirmFlow = Pick<OrderFlow, 'confirmHold' | 'checkHeldPrice' | 'endLateHold' | 'holdCall'>;
export type CancelFlow = Pick<OrderFlow, 'cancel' | 'ownRefund' | 'endLateHold' | 'holdCall'>;
export type QuoteFlow = Pick<OrderFlow, 'ownRefund' | 'quoteRefund'>;
export type SweepFlow = Pick<OrderFlow, 'endLateHold' | 'holdCall' | 'sweepPending' | 'settleLeftCalls'>;

/** The dependencies of a function after create, with its part `F` of the flow. */
export type OrderDeps<F = Pick<OrderFlow, 'endLateHold'>> = FlowDeps & { readonly orderFlow: F };

/** A change search as the route hands it to a supplier's own changes: the journeys asked, checked by schema. */
export interface ChangeSearch {
  readonly journeys: readonly {
    readonly index: number;
    readonly departure_date: string;
    readonly origin?: string | undefined;
    readonly destination?: string | undefined;
  }[];
  readonly limit: number;
}

/** What a supplier's own changes are given: the flow's, and the key change offers are sealed with. */
export type ChangeDeps = FlowDeps & { readonly keys: { readonly offer: Uint8Array } };

/** A supplier's own changes (docs/API.md §4.9): a remote supplier's, supply/remote/change-search.ts. */
interface SupplierChanges {
  /** The ChangeOffers of `request` for the CONFIRMED `record` of `agencyId`'s agent. */
  search(deps: ChangeDeps, record: BookingRecord, request: ChangeSearch): Promise<SupplierChangeOfferView[]>;
  /** Makes the change `request` names, exactly once across the supplier call; `lock`'s answer stored with it. */
  change(deps: ChangeDeps, request: ChangeOrder, lock: IdempotencyLock | undefined): Promise<BookingView>;
}

/** A change as the route hands it to a supplier's own changes: the request checked by schema, and who asks. */
export interface ChangeOrder {
  readonly body: {
    readonly booking_id: string;
    readonly change_offer_id: string;
    readonly change_total: { readonly amount: number; readonly currency: string };
  };
  readonly session: { readonly agencyId: string; readonly agentId: string; readonly agentName: string };
}

/** A ChangeOffer (docs/API.md §4.9) as a supplier's own changes answer it: what it does not state is null. */
export interface SupplierChangeOfferView {
  id: string;
  flight: FlightView;
  change_total: { amount: number; currency: string };
  penalty: { amount: number; currency: string } | null;
  fare_difference: { amount: number; currency: string } | null;
  refund_to?: RefundTo;
  expires_at: string;
}

/**
 * Change's part of the flow: the supplier's own changes, or none, when the booking's changes are the
 * in-table ones of bookings/change-search.ts and change.ts (the built-in network).
 */
export interface ChangeFlow {
  readonly changes?: SupplierChanges;
}
