import { client, type Outcome, type Schemas, settle } from './api.ts';
import { formatMoney, slicesOf } from './offers.ts';
import { yourTime } from './time.ts';

/**
 * The agency's bookings as the bookings and booking screens use them (docs/API.md §4.3, §4.4). Every
 * call goes through the typed client, its shapes from the generated schema; only the `details` of a
 * refusal (PRICE_CHANGED, REFUND_CHANGED), which the schema leaves open, are written here.
 */
export type Booking = Schemas['Booking'];
export type BookingStatus = Booking['status'];

export const STATUSES: readonly BookingStatus[] = [
  'CONFIRMED',
  'HELD',
  'PENDING',
  'CANCELLED',
  'EXPIRED',
  'FAILED',
];

export const isStatus = (value: string | null): value is BookingStatus =>
  STATUSES.includes(value as BookingStatus);

/** What a cancel now would give back (`POST /api/flights/booking/refund-quote`). */
export type RefundQuote = Schemas['BookingRefundQuoteResponse']['data'];
/** An amount in a currency, as the refund quote says it. */
type Money = NonNullable<RefundQuote['refund']>;

const money = (m: Money) => formatMoney(m.amount, m.currency);

/** What the quote says a cancel gives back, in words: a refund the supplier does not know is never 0. */
export function refundSentence(quote: RefundQuote): string {
  const { refund, penalty } = quote;
  if (refund === null)
    return 'The airline has not stated the refund yet. You can still cancel: the booking takes the refund the airline gives, shown on it once known. The seats go back on sale.';
  if (refund.amount <= 0) return 'This fare gives no refund. The seats go back on sale.';
  const kept = quote.penalty_unknown
    ? ' (what the fare keeps is not stated in this currency)'
    : penalty && penalty.amount > 0
      ? ` (the fare keeps ${money(penalty)})`
      : '';
  return `Refund: ${money(refund)}${kept}. The seats go back on sale.`;
}

/** Where a cancel's money goes (`refund_to`), in the agent's words. */
const REFUND_DESTINATIONS: Record<NonNullable<RefundQuote['refund_to']>, string> = {
  balance: 'The refund goes to your agency’s account with the service (balance).',
  card: 'The refund goes back to the card that paid.',
  voucher: 'The refund is given as a voucher.',
  airline_credits: 'The refund is given as airline credits.',
  arc_bsp_cash: 'The refund is paid in cash through the ARC/BSP settlement.',
  awaiting_payment: 'Nothing was paid yet, so nothing goes back.',
};

/** Where the quote says the money goes; said plainly when the airline names no destination. */
export function refundDestination(quote: Pick<RefundQuote, 'refund_to'>): string {
  return quote.refund_to
    ? REFUND_DESTINATIONS[quote.refund_to]
    : 'The airline has not said where the refund goes.';
}

/**
 * One line per airline credit a cancel gives: its code (or that it is to follow), its value, and its
 * expiry on the agent's clock (or that none is stated).
 */
export function airlineCreditLines(quote: Pick<RefundQuote, 'airline_credits'>): string[] {
  return quote.airline_credits.map((credit) => {
    const code = credit.code ? `code ${credit.code}` : 'code to follow from the airline';
    const expiry = credit.expires_at ? `expires ${yourTime(credit.expires_at)}` : 'no expiry stated';
    return `Airline credit: ${money(credit)}, ${code}, ${expiry}.`;
  });
}

/**
 * What a cancelled booking says it gave back, as stated (docs/API.md §4.3): the refund, or that the
 * airline has not stated it (never 0 for unknown); where it goes; each airline credit. Nothing for a
 * booking that was not cancelled.
 */
export function refundLines(booking: Booking): string[] {
  if (booking.refund === undefined) return [];
  const { refund } = booking;
  return [
    refund === null
      ? 'Refund: not stated by the airline yet; shown here once known.'
      : `Refunded: ${money(refund)}`,
    ...(booking.refund_to === undefined ? [] : [refundDestination({ refund_to: booking.refund_to })]),
    ...airlineCreditLines({ airline_credits: booking.airline_credits ?? [] }),
  ];
}

/** `REFUND_CHANGED`'s details: the refund the cancel expected, and the one it would give now. */
export interface RefundChanged {
  previous_refund: Money;
  refund: Money | null;
  quote: RefundQuote;
}

/** `PRICE_CHANGED`'s details on confirm: the hold's new price, to confirm at. */
export interface PriceChanged {
  previous_total_price: number;
  total_price: number;
  currency: string;
}

/**
 * What the bookings workspace narrows the list to (docs/API.md §4.3): search text (a PNR, a whole last
 * name or the contact e-mail), first-departure dates, the agent's own bookings, a status, and the
 * order (`deadline`: the holds, soonest deadline first).
 */
export type ListFilters = Partial<
  Pick<Schemas['BookingListRequest'], 'q' | 'departure_from' | 'departure_to' | 'created_by' | 'sort'>
> & { status?: BookingStatus };

/**
 * One page of the agency's bookings that pass `filters`; `meta.partial` when the service's read
 * budget cut the page short (more may match: follow `next_cursor`). Only the filters given are sent.
 */
export function listBookings(
  page: { cursor?: string } & ListFilters,
  limit = 20,
): Promise<Outcome<Schemas['BookingListResponse']>> {
  const { cursor, status, sort, ...filters } = page;
  const given = Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
  ) as Omit<ListFilters, 'status' | 'sort'>;
  // `limit` and `sort` have defaults: the generated type asks for them, the service does not.
  const body = {
    limit,
    ...(cursor && { cursor }),
    ...(status && { status: [status] }),
    ...given,
    ...(sort === 'deadline' && { sort }),
  } as Schemas['BookingListRequest'];
  return settle(client.POST('/api/flights/booking/list', { body }));
}

/** Adds the agency's note to a booking: answers the Booking with its notes. */
export const addNote = (bookingId: string, text: string) =>
  settle(client.POST('/api/flights/booking/note', { body: { booking_id: bookingId, text } }));

/** The itinerary as the confirmation e-mail tells it, for the print view. */
export const itineraryOf = (bookingId: string) =>
  settle(client.POST('/api/flights/booking/itinerary', { body: { booking_id: bookingId } }));

/** E-mails the itinerary again, to the contact or to `email`; answers the Booking with the note. */
export const resendItinerary = (bookingId: string, email?: string) =>
  settle(
    client.POST('/api/flights/booking/resend', {
      body: { booking_id: bookingId, ...(email && { email }) },
    }),
  );

/** A PNR as agents type it (any case, spaces around) as the service stores it. */
export const normalPnr = (typed: string): string => typed.trim().toUpperCase();

/** A booking by its id, or by its PNR in any letter case. */
export function getBooking(
  by: { booking_id: string } | { pnr: string },
): Promise<Outcome<{ data: Booking }>> {
  const body = 'pnr' in by ? { pnr: normalPnr(by.pnr) } : by;
  return settle(client.POST('/api/flights/booking/get', { body }));
}

export function refundQuote(bookingId: string): Promise<Outcome<{ data: RefundQuote }>> {
  return settle(client.POST('/api/flights/booking/refund-quote', { body: { booking_id: bookingId } }));
}

/**
 * Cancels at exactly `refund` (the quote the agent saw): otherwise 409 `REFUND_CHANGED`, nothing changed.
 * A quote whose refund is unknown (`null`) cancels without one: the supplier's refund is taken as it comes.
 */
export function cancelBooking(bookingId: string, refund: Money | null): Promise<Outcome<{ data: Booking }>> {
  return settle(
    client.POST('/api/flights/booking/cancel', {
      body: { booking_id: bookingId, ...(refund && { refund }) },
    }),
  );
}

/** Confirms a hold at `price`; `idempotencyKey` is one per attempt, so a double click confirms once. */
export function confirmBooking(
  booking: Pick<Booking, 'booking_id'>,
  price: { total_price: number; currency: string },
  idempotencyKey: string,
): Promise<Outcome<{ data: Booking }>> {
  return settle(
    client.POST('/api/flights/booking/confirm', {
      body: { booking_id: booking.booking_id, ...price },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );
}

/** The booking's journeys (one-way, return or multi-city), as search gave them. */
export const journeysOf = (booking: Booking) => slicesOf(booking.flight);

/** The first departure (UTC): no cancel from then on. */
export function firstDeparture(booking: Booking): string | undefined {
  return journeysOf(booking)[0]?.segments[0]?.departure_at;
}

/** `LHR → JFK` for a one-way, `LHR ⇄ JFK` for a return, `LHR → CDG → JFK` for a multi-city. */
export function routeOf(booking: Booking): string {
  const journeys = journeysOf(booking);
  const ends = journeys.map((journey) => [
    journey.segments[0]?.origin ?? '',
    journey.segments.at(-1)?.destination ?? '',
  ]);
  const [first, second] = ends;
  if (!first) return '';
  if (ends.length === 2 && second && second[0] === first[1] && second[1] === first[0])
    return `${first[0]} ⇄ ${first[1]}`;
  return [first[0], ...ends.map(([, to]) => to)].join(' → ');
}
