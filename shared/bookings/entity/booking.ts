import { type Clock, isoSeconds } from '../../clock.ts';
import type { TableHandle } from '../../db/client.ts';
import type { PaxType } from '../../flights/fares.ts';
import { minorUnits, toMajor } from '../../money.ts';
import type { Refunded, SupplierName } from '../../supply/port.ts';
import {
  type BookingRecord,
  type BookingView,
  type Cancellation,
  changeStamp,
  type RefundWhere,
} from './booking-item.ts';
import { soldFlight } from './stored-flight.ts';

/**
 * What booking code needs: the table, the clock, and the supplier flights come from — each route takes
 * the part of the port it uses (create: offers; cancel and the sweep: orders).
 */
export interface BookingDeps<
  Supplier extends { readonly name: SupplierName } = { readonly name: SupplierName },
> extends TableHandle {
  readonly clock: Clock;
  readonly supplier: Supplier;
  /** `HOLD_MINUTES`: how long a new hold lasts, when not the rule of docs/API.md §4.4. */
  readonly config: { readonly HOLD_MINUTES?: number | undefined };
}

/**
 * The deadline rule, spelled here once (docs/bookings.md, "One truth at the deadline"). A hold is in
 * time while the clock of the writer that settles it, read as it writes, is before its
 * `payment_required_by`; from that second on it has lapsed. Whether a confirm or a cancel came in time
 * is decided by the condition of its write (`DEADLINE_AHEAD`, and an expiry's `DEADLINE_PASSED`), with
 * `:at` that writer's clock ({@link writerClock}), never by when its request arrived nor by a reader's
 * clock. Deadlines are whole seconds written as the clock is, so {@link isPastDeadline} compares the
 * same two strings DynamoDB compares.
 */
export const DEADLINE_AHEAD = 'payment_required_by > :at';
export const DEADLINE_PASSED = 'payment_required_by <= :at';

/** The writer's clock as the deadline rule compares it, read just before the write it conditions. */
export const writerClock = (clock: Clock) => isoSeconds(clock.now());

/** Whether `record` is a hold whose deadline has passed at `now` by the deadline rule. */
export const isPastDeadline = (record: Pick<BookingRecord, 'status' | 'payment_required_by'>, now: number) =>
  record.status === 'HELD' &&
  record.payment_required_by !== undefined &&
  record.payment_required_by <= isoSeconds(now);

/**
 * Whether `record` is a lapsed hold that a write may expire now: past its deadline, and no supplier
 * call on it (a remote hold with a payment under way, or one whose outcome is unknown, ends as its
 * supplier says: supply/remote/hold.ts).
 */
export const isLateHold = (
  record: Pick<BookingRecord, 'status' | 'payment_required_by' | 'hold_call'>,
  now: number,
) => isPastDeadline(record, now) && record.hold_call === undefined;

/** A claim older than this is a dead request's: every function that calls a supplier stops within 28 s. */
export const CALL_LEASE_MS = 60_000;

/** Whether a request is calling a remote hold's supplier now, under its claim (supply/remote/hold.ts). */
export const hasLiveCall = (record: Pick<BookingRecord, 'hold_call'>, now: number) =>
  record.hold_call?.id !== undefined && Date.parse(record.hold_call.started_at) > now - CALL_LEASE_MS;

/**
 * A late hold as its expiry stores it (booking-updates.ts, expireHoldUpdate): EXPIRED, changed at its
 * deadline, one version on.
 */
export function expiredRecord(record: BookingRecord): BookingRecord {
  const { hold_call: _, ...rest } = record;
  return {
    ...rest,
    status: 'EXPIRED',
    updated_at: record.payment_required_by ?? changeStamp(record).updated_at,
    version: changeStamp(record).version + 1,
  };
}

/**
 * A booking's `price_breakdown` with bags or seats (docs/API.md §4.10, docs/decisions.md "Changes and
 * what a fare includes, bags and seats"): the Flight's rows (the fare per passenger type), then one row
 * per service (`bags`, `seats`) and passenger type bought for: `count` the bags or seats, `base` and
 * `total` what they cost, `taxes` 0 — so the rows sum to the Booking's `total_price` to the cent.
 * Nothing without bags or seats: the Flight's own breakdown is then the whole price.
 */
function extrasBreakdown(record: BookingRecord): { price_breakdown?: BookingView['price_breakdown'] } {
  const lines = new Map<
    string,
    { pax_type: PaxType; service: 'bags' | 'seats'; count: number; cents: number }
  >();
  const add = (passenger: number, service: 'bags' | 'seats', count: number, amount: number) => {
    const paxType = record.passengers[passenger]?.pax_type ?? 'ADULT';
    const key = `${service}/${paxType}`;
    const line = lines.get(key) ?? { pax_type: paxType, service, count: 0, cents: 0 };
    line.count += count;
    line.cents += count * (minorUnits(String(amount), record.currency) ?? 0);
    lines.set(key, line);
  };
  for (const bag of record.services ?? []) add(bag.passenger_index, 'bags', bag.quantity, bag.price.amount);
  record.passengers.forEach((passenger, i) => {
    for (const seat of passenger.seats ?? []) add(i, 'seats', 1, seat.price.amount);
  });
  if (lines.size === 0) return {};
  const rows = [...lines.values()].map(({ cents, ...line }) => {
    const amount = toMajor(cents, record.currency);
    return {
      pax_type: line.pax_type,
      count: line.count,
      base: amount,
      taxes: 0,
      total: amount,
      service: line.service,
    };
  });
  return { price_breakdown: [...soldFlight(record.flight).price_breakdown, ...rows] };
}

/** The Booking resource of docs/API.md §4.2 for a stored booking, exactly as stored. */
export function bookingView(record: BookingRecord): BookingView {
  return {
    booking_id: record.booking_id,
    pnr: record.pnr,
    status: record.status,
    total_price: toMajor(record.total, record.currency),
    currency: record.currency,
    created_at: record.created_at,
    ...(record.cancelled_at && { cancelled_at: record.cancelled_at }),
    ...(record.created_by && { created_by: record.created_by }),
    ...(record.cancelled_by && { cancelled_by: record.cancelled_by }),
    flight: soldFlight(record.flight),
    passengers: record.passengers,
    ...(record.services && { services: record.services }),
    ...extrasBreakdown(record),
    contact: record.contact,
    ...(record.supplier && { supplier: record.supplier }),
    ...(record.refund !== undefined && { refund: record.refund }),
    ...(record.refund_to !== undefined && { refund_to: record.refund_to }),
    ...(record.airline_credits && { airline_credits: record.airline_credits }),
    ...(record.payment_required_by && { payment_required_by: record.payment_required_by }),
    ...(record.changes && { changes: record.changes }),
    ...(record.notes && record.notes.length > 0 && { notes: record.notes }),
    ...changeStamp(record),
  };
}

/** A supplier's statement of where a cancel's money goes, as the API answers it (major units, whole seconds). */
export const refundWhere = (stated: Pick<Refunded, 'refundTo' | 'airlineCredits'>): RefundWhere => ({
  refund_to: stated.refundTo,
  airline_credits: stated.airlineCredits.map((credit) => ({
    code: credit.code,
    amount: toMajor(credit.amount, credit.currency),
    currency: credit.currency,
    expires_at: credit.expiresAt === null ? null : isoSeconds(Date.parse(credit.expiresAt)),
  })),
});

/** The Booking resource of `record` (CONFIRMED or HELD as read) once `cancelled` has been stored. */
export function cancelledView(record: BookingRecord, cancelled: Cancellation): BookingView {
  return bookingView({
    ...record,
    status: 'CANCELLED',
    payment_required_by: undefined,
    cancelled_at: cancelled.at,
    cancelled_by: cancelled.by,
    ...(cancelled.refund !== undefined && { refund: cancelled.refund }),
    ...(cancelled.refund_to !== undefined && { refund_to: cancelled.refund_to }),
    ...(cancelled.airline_credits && { airline_credits: cancelled.airline_credits }),
    updated_at: cancelled.at,
    version: changeStamp(record).version + 1,
  });
}
