import type { Session } from '../auth/session.ts';
import type { TransactItem } from '../db/transaction.ts';
import type { ApiError } from '../errors.ts';
import type { BagOffer } from '../flights/bags.ts';
import type { TravelClass } from '../flights/cabins.ts';
import type { PassengerCounts } from '../flights/fares.ts';
import type { FlightView } from '../flights/flight-view.ts';
import type { LocalDate } from '../flights/local-time.ts';
import type { SearchInput } from '../flights/search-request.ts';
import type { MapCabin } from '../flights/seat-maps.ts';

/**
 * The FlightSupplier port: where flights come from (docs/API.md §4.5). `bookings/` talks to this and
 * never to an adapter. Two kinds of supplier exist: **in-table** (the built-in network: the seats join
 * the booking's own writes in one TransactWriteItems) and **remote** (Duffel: every order, payment and
 * cancellation is an outside call). Each kind is paired with booking's flow for it where the adapter is
 * chosen (shared/order-context.ts): booking code never asks which it has.
 */
export type SupplierName = 'network' | 'duffel';

/** The writes the booking itself makes, by slot, given the PNR the order got. */
export type RecordSlot = 'booking' | 'pnr' | 'pending' | 'held' | 'offer' | 'idempotency';
export type RecordWrites = (pnr: string) => readonly (readonly [RecordSlot, TransactItem] | undefined)[];

/** What the supplier holds for a booking, beside the booking's own fields. */
interface Holding {
  /** Seats taken on every segment (infants hold none). */
  readonly seats: number;
  /**
   * Where they were taken (in-table suppliers): given back on cancel; `paid`, what the party paid for
   * the segment (minor units), so that a refund can be counted journey by journey.
   */
  readonly segments: readonly { flight_number: string; date: string; bucket: number; paid?: number }[];
}

/** The offer as the supplier quotes it now: the quoted Flight, and what changed since, if anything. */
interface Requote {
  /** The Flight exactly as search returned it for this id (for FLIGHT_MISMATCH). */
  readonly flight: FlightView;
  /** First departure, epoch ms: the booking is cancellable until then. */
  readonly departsAt: number;
  /** PRICE_CHANGED (with a fresh Flight), SOLD_OUT or OFFER_EXPIRED when the quote no longer holds. */
  readonly change?: ApiError;
  /** Remote suppliers: false for an offer that must be paid at once (it cannot be held). */
  readonly holdable?: boolean;
}

/** A traveller as the order needs it. */
export interface OrderPassenger {
  readonly title: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly pax_type: 'ADULT' | 'CHILD' | 'INFANT';
  readonly gender: string;
  readonly born_on: string;
}

/** Everything a remote order carries: our booking id (in the order's metadata), travellers, contact. */
export interface OrderRequest {
  readonly bookingId: string;
  readonly passengers: readonly OrderPassenger[];
  readonly contact: { readonly email: string; readonly phone: string };
  /** With bags or seats (docs/API.md §4.10): what is paid, minor units, and what they are. */
  readonly total?: number;
  readonly services?: readonly { readonly id: string; readonly quantity: number }[];
  readonly seats?: readonly { passengerIndex: number; segmentIndex: number; designator: string }[];
}

/** A supplier's order, as far as a booking cares. */
export interface SupplierOrder {
  readonly orderId: string;
  /** The airline's record locator: the booking's PNR. */
  readonly bookingReference: string;
  readonly total: number;
  readonly currency: string;
  readonly cancelled: boolean;
  /** Hold orders: paid or not, and by when. */
  readonly awaitingPayment: boolean;
  readonly paymentRequiredBy?: string;
  /** A cancelled order: what its cancellation gave back (a refund null when the supplier does not say). */
  readonly cancellation?: Refunded;
}

/**
 * The outcome of paying a held order: paid; refused with the error to answer (nothing was paid); or
 * no answer to trust (a timeout, or a refusal such as "already paid" or "price changed" that only the
 * order itself can explain): read the order to find out, never pay again blindly.
 */
export type PaymentOutcome =
  | { readonly kind: 'paid' }
  | { readonly kind: 'refused'; readonly error: ApiError }
  | { readonly kind: 'unknown' };

/** What a cancellation refunded, in minor units. */
export interface Refund {
  readonly amount: number;
  readonly currency: string;
}

/** Where a cancellation's money goes, as suppliers name it (docs/API.md §4.3): Duffel's `refund_to`. */
export const REFUND_DESTINATIONS = [
  'balance',
  'card',
  'voucher',
  'airline_credits',
  'arc_bsp_cash',
  'awaiting_payment',
] as const;
export type RefundTo = (typeof REFUND_DESTINATIONS)[number];

/** An airline credit a cancellation gives, in minor units. */
export interface AirlineCredit {
  /** What the airline redeems it by; null while the airline has not issued it (Duffel: nullable). */
  readonly code: string | null;
  readonly amount: number;
  readonly currency: string;
  /** ISO 8601 UTC; null when the supplier states no expiry. */
  readonly expiresAt: string | null;
}

/** What a cancellation gives back, and where, as the supplier states it. */
export interface Refunded {
  /** Null when the supplier does not know it (never read as 0). */
  readonly refund: Refund | null;
  /** Null when the supplier names no destination, or one this service does not know. */
  readonly refundTo: RefundTo | null;
  readonly airlineCredits: readonly AirlineCredit[];
}

/** A cancellation of which the supplier says nothing: no refund known (never 0), no destination, no credits. */
export const NOTHING_STATED: Refunded = { refund: null, refundTo: null, airlineCredits: [] };

/** A supplier's offer to cancel an order: what it would refund, until when. Nothing is cancelled yet. */
export interface CancellationQuote extends Refunded {
  readonly id: string;
  /** ISO 8601 UTC: the quote must be confirmed before then; null when the supplier states none. */
  readonly expiresAt: string | null;
}

/**
 * The outcome of confirming a cancellation quote: cancelled with its refund; refused (nothing was
 * cancelled) with the error to answer; or no answer to trust (a timeout, a 5xx after sending, or "already
 * cancelled"): read the order to find out, never confirm again blindly.
 */
export type CancellationOutcome =
  | ({ readonly kind: 'cancelled' } & Refunded)
  | { readonly kind: 'refused'; readonly error: ApiError }
  | { readonly kind: 'unknown' };

/**
 * The outcome of an order call: the order; a definite "no order was made" (the supplier refused, or
 * turned the call away unprocessed, such as a rate limit) with the error to answer; or no answer we can
 * trust (a timeout or 5xx after sending), which only the supplier's records can settle.
 */
export type OrderOutcome =
  | { readonly kind: 'ordered'; readonly order: SupplierOrder }
  | { readonly kind: 'refused'; readonly error: ApiError }
  | { readonly kind: 'unknown' };

/** The in-table way of ordering: the seats and the booking's writes in one transaction. */
export interface InTableOrdering {
  readonly kind: 'in-table';
  readonly holding: Holding;
  /**
   * Takes the seats together with `records(pnr)` in one transaction, answering the PNR it used.
   * Throws OFFER_EXPIRED (offer slot), IDEMPOTENCY_IN_PROGRESS (idempotency slot), SOLD_OUT or
   * PRICE_CHANGED (seats gone), 503 after bounded retries.
   */
  reserve(records: RecordWrites, seats?: readonly ChosenSeat[]): Promise<string>;
}

/** A seat chosen at create: its segment, designator and the request field that chose it. */
export interface ChosenSeat {
  readonly segmentIndex: number;
  readonly designator: string;
  readonly path: string;
}

/** The remote way: one order call, instant (paid from balance for exactly the quote) or on hold. */
export interface RemoteOrdering {
  readonly kind: 'remote';
  order(request: OrderRequest): Promise<OrderOutcome>;
  /** For holds (docs/API.md §4.4): an order the supplier keeps unpaid until its deadline. */
  orderOnHold(request: OrderRequest): Promise<OrderOutcome>;
}

type Ordering = InTableOrdering | RemoteOrdering;

/** An offer id opened: what was quoted, and how to book it. */
export interface SupplierOffer<O extends Ordering = Ordering> {
  /** One per issued offer, whatever text carried its id: the booked-offer marker's key. */
  readonly identity: string;
  readonly agencyId: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
  readonly travelClass: TravelClass;
  readonly passengers: PassengerCounts;
  /** Minor units of `currency`, for the whole party. */
  readonly total: number;
  readonly currency: string;
  /** The local calendar day of the first departure: passengers' ages are judged on it. */
  readonly firstDepartureDate: LocalDate;
  /** The offer as quoted now. Undefined when the id names flights that no longer exist. */
  requote(flightId: string): Promise<Requote | undefined>;
  readonly ordering: O;
  /** Bags and seat maps sold with the offer now (docs/API.md §4.10); absent: the supplier sells none. */
  services?(): Promise<OfferServices>;
}

/** What an offer sells beside its seats (docs/API.md §4.10): money in minor units of the offer's currency. */
export interface OfferServices {
  readonly bags: readonly BagOffer[];
  readonly seatMaps: readonly { readonly segmentIndex: number; readonly cabins: readonly MapCabin[] }[];
}

/** A booking as the supplier side sees it, for settling and cancelling. */
export interface SuppliedBooking {
  readonly booking_id: string;
  readonly agency_id: string;
  readonly seats: number;
  readonly travel_class: TravelClass;
  readonly segments?: readonly {
    flight_number: string;
    date: string;
    bucket: number;
    seats?: readonly string[] | undefined;
  }[];
  readonly supplier?: { readonly name: string; readonly order_id?: string };
  readonly passengers: readonly { last_name: string; first_name: string }[];
}

/**
 * A supplier's orders, as booking works on them after create: what gives a booking's seats back, and a
 * remote supplier's calls on an order — read, find by our booking id, pay (holds), quote and cancel.
 */
type SupplierOrders = InTableOrders | RemoteOrders;

interface SeatsBack {
  /**
   * The writes that put `booking`'s seats back on sale, to run in the same transaction as the booking's
   * own cancel or expiry: the in-table supplier's seats on every segment; none for a remote supplier,
   * whose order holds them (cancelled at the supplier, or lapsing there by itself at a hold's deadline).
   */
  seatsBack(booking: SuppliedBooking): TransactItem[];
}

/** An in-table supplier's orders: the seats are in our table, so nothing is called outside. */
interface InTableOrders extends SeatsBack {
  readonly kind: 'in-table';
}

/** A journey to change at a remote supplier (docs/API.md §4.9): its index in the order's slices, where and when now. */
export interface ChangeAsked {
  readonly index: number;
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
}

/**
 * A remote supplier's offer to change an order, in minor units of `currency`: the new journeys by the
 * index of the journey each replaces, and what the supplier states of its cost (null where it states
 * nothing: never read as 0).
 */
export interface SupplierChangeOffer {
  /** The supplier's own id of the offer. */
  readonly id: string;
  readonly journeys: readonly { readonly index: number; readonly journey: FlightView['outbound'] }[];
  readonly currency: string;
  readonly changeTotal: number;
  readonly penalty: number | null;
  /** The order's new total less its total now; null where the supplier states no new total. */
  readonly fareDifference: number | null;
  readonly refundTo: RefundTo | null;
  /** ISO 8601 UTC, as the supplier states it. */
  readonly expiresAt: string;
}

/** A pending change of an order at a remote supplier: its id, whether confirmed, and its total (minor units). */
export interface SupplierChange {
  readonly id: string;
  readonly confirmed: boolean;
  readonly changeTotal: number;
  readonly currency: string;
}

/**
 * The outcome of confirming a change: confirmed; refused with the error to answer (nothing changed); or
 * no answer to trust (a timeout, a 5xx after sending, "already confirmed"): read the change to find out,
 * never confirm again.
 */
export type ChangeOutcome =
  | { readonly kind: 'confirmed' }
  | { readonly kind: 'refused'; readonly error: ApiError }
  | { readonly kind: 'unknown' };

/** A remote supplier's orders: each is an outside call. */
export interface RemoteOrders extends SeatsBack {
  readonly kind: 'remote';
  /** Asks for the cancellation's quote and confirms it (`currency`: the order's): what it gave back. */
  cancel(orderId: string, currency: string): Promise<Refunded>;
  /**
   * The quote for cancelling the order now (repeatable); 'cancelled' when it already is. Refusals: 409
   * NOT_CANCELLABLE, never the supplier's words. `currency`: the order's, for a zero that names none.
   */
  quoteCancellation(orderId: string, currency: string): Promise<CancellationQuote | 'cancelled'>;
  /** Confirms a quote, once: no retry (the order's state settles an unknown outcome). */
  confirmCancellation(quote: CancellationQuote): Promise<CancellationOutcome>;
  /** The order made for `booking`, found by our booking id; undefined when none was made. */
  findOrder(booking: SuppliedBooking): Promise<SupplierOrder | undefined>;
  /** The order as the supplier holds it now: a hold's current price, paid or not. */
  readOrder(orderId: string): Promise<SupplierOrder>;
  /**
   * The supplier's offers of changing `asked` journeys of the order (docs/API.md §4.9), in `cabin`: asked
   * for (repeatable, nothing changes). Refusals: 409 NOT_CHANGEABLE, never the supplier's words.
   */
  searchChanges(
    orderId: string,
    asked: readonly ChangeAsked[],
    cabin: TravelClass,
  ): Promise<SupplierChangeOffer[]>;
  /** A pending change of the order from the supplier's change offer `offerId`: it changes nothing yet. */
  createChange(offerId: string): Promise<SupplierChange>;
  /** Confirms a pending change once, paid from the balance when it costs something: no retry. */
  confirmChange(change: SupplierChange): Promise<ChangeOutcome>;
  /** The change as the supplier holds it now: how a lost confirm is settled. */
  readChange(changeId: string): Promise<SupplierChange>;
  /** The order's journeys and total now (after a change), minor units. */
  readJourneys(
    orderId: string,
  ): Promise<{ journeys: FlightView['outbound'][]; total: number; currency: string }>;
  /** Pays a held order for exactly `amount` (holds, docs/API.md §4.4), once: no retry. */
  pay(orderId: string, amount: Refund): Promise<PaymentOutcome>;
}

/** The port itself, for a supplier whose offers order in way `O` and whose orders are `R`. */
interface FlightSupplier<O extends Ordering = Ordering, R extends SupplierOrders = SupplierOrders> {
  readonly name: SupplierName;
  /** Searches and seals each Flight's id for the caller's agency. */
  search(body: SearchInput, session: Session): Promise<FlightView[]>;
  /** The offer behind an id this supplier issued; undefined for anything else. */
  openOffer(flightId: string): SupplierOffer<O> | undefined;
  readonly orders: R;
}

/**
 * The parts of the port each function uses: a function is bundled with its part only, so that search
 * does not carry booking code, nor cancel the schedule (shared/supply/context.ts).
 */
export type SearchingSupplier = Pick<FlightSupplier, 'name' | 'search'>;
export type BookingSupplier = PartOf<'name' | 'openOffer'>;
export type OrdersSupplier = PartOf<'name' | 'orders'>;
type PartOf<K extends keyof FlightSupplier> = Pick<InTableSupplier, K> | Pick<RemoteSupplier, K>;

/** The two kinds of supplier, told apart by name where the adapter is chosen. */
export type InTableSupplier = FlightSupplier<InTableOrdering, InTableOrders> & { readonly name: 'network' };
export type RemoteSupplier = FlightSupplier<RemoteOrdering, RemoteOrders> & { readonly name: 'duffel' };

/** What every supplier's offer says of its quote, taken from the quote it sealed. */
type OfferFacts = Pick<
  SupplierOffer,
  'identity' | 'agencyId' | 'expiresAt' | 'travelClass' | 'passengers' | 'total' | 'currency'
>;

export const offerFacts = (quote: OfferFacts): OfferFacts => ({
  identity: quote.identity,
  agencyId: quote.agencyId,
  expiresAt: quote.expiresAt,
  travelClass: quote.travelClass,
  passengers: quote.passengers,
  total: quote.total,
  currency: quote.currency,
});
