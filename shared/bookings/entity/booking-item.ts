import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TableHandle } from '../../db/client.ts';
import { retrying, TRY_AGAIN } from '../../db/retry.ts';
import { itemSchema, parseItem } from '../../db/stored-item.ts';
import { agencyPartition, GSI1 } from '../../db/table.ts';
import { NotChangeableError, OfferExpiredError } from '../../errors.ts';
import { TRAVEL_CLASSES } from '../../flights/cabins.ts';
import { REFUND_DESTINATIONS, type RefundTo } from '../../supply/port.ts';
import { BOOKING_ID_PATTERN } from './ids.ts';
import { GENDERS, PAX_TYPES, TITLES } from './passenger-fields.ts';
import { Flight, StoredSegment, soldFlight } from './stored-flight.ts';

/**
 * The booking item (`BOOKING#<booking id>` / `BOOKING`): the booking as stored, and what the API
 * answers for it. Listed in GSI1 under its agency's partition, sorted by `<created_at>#<booking_id>`
 * (the list cursor carries that position).
 *
 * This is the booking entity's home, as ElectroDB keeps an entity: its keys, shape and reads here; its
 * state changes in booking-updates.ts, its claims on a remote supplier's calls in booking-calls.ts, and
 * each route's writes (create, confirm, cancel, expire, settle) listed in booking-writes.ts. No other
 * module spells a write of the item (test/unit/architecture.test.ts).
 */
export const bookingKey = (bookingId: string) => ({ pk: `BOOKING#${bookingId}`, sk: 'BOOKING' });

/** A booking's place in its agency's listing. */
interface ListPosition {
  readonly createdAt: string;
  readonly bookingId: string;
}

const positionText = (position: ListPosition) => `${position.createdAt}#${position.bookingId}`;
const listingKey = (agencyId: string, position: ListPosition) => ({
  gsi1pk: agencyPartition(agencyId),
  gsi1sk: positionText(position),
});

/** The listing position of `record`, as the list cursor carries it. */
export const listPositionOf = (record: { created_at: string; booking_id: string }) =>
  positionText({ createdAt: record.created_at, bookingId: record.booking_id });

const LIST_POSITION = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z)#(${BOOKING_ID_PATTERN})$`);

/** A listing position read back from a cursor; undefined unless it is exactly one this module writes. */
export function readListPosition(text: string): ListPosition | undefined {
  const match = LIST_POSITION.exec(text);
  return match?.[1] && match[2] ? { createdAt: match[1], bookingId: match[2] } : undefined;
}

const Actor = () => z.object({ id: z.string(), name: z.string() });
/** An airline credit a cancel gave (docs/API.md §4.3): major units; `code` null until the airline issues it. */
const AirlineCredit = () =>
  z.object({
    code: z.nullable(z.string()),
    amount: z.number(),
    currency: z.string(),
    expires_at: z.nullable(z.string()),
  });
type AirlineCreditView = z.output<ReturnType<typeof AirlineCredit>>;

/** Where a cancel's money goes, as the supplier states it: the refund quote's and the cancelled Booking's. */
export interface RefundWhere {
  /** Null when the supplier names no destination, or one this service does not know. */
  refund_to: RefundTo | null;
  airline_credits: AirlineCreditView[];
}

/**
 * What a cancel stores with CANCELLED: when, by whom, and what was given back — `refund` null while
 * the supplier does not know it (never 0), where it went, and the airline credits.
 */
export interface Cancellation extends Partial<RefundWhere> {
  at: string;
  by: { id: string; name: string };
  refund?: { amount: number; currency: string } | null | undefined;
}
const Passenger = () =>
  z.object({
    title: z.enum(TITLES),
    first_name: z.string(),
    last_name: z.string(),
    pax_type: z.enum(PAX_TYPES),
    gender: z.enum(GENDERS),
    born_on: z.string(),
    /** The seats chosen for the passenger (docs/API.md §4.10), per segment. */
    seats: z.optional(z.array(z.object({ segment_index: z.int(), designator: z.string(), price: Money() }))),
  });

const Money = () => z.object({ amount: z.number(), currency: z.string() });

/** The bags bought with the booking (docs/API.md §4.10); `price` per bag. */
const BoughtService = () =>
  z.object({
    id: z.string(),
    journey_index: z.int(),
    passenger_index: z.int(),
    kind: z.literal('checked'),
    weight_kg: z.number(),
    quantity: z.int(),
    price: Money(),
  });

/** A row of a Booking's `price_breakdown`: a Flight's row, or (`service`) its bags' or seats' for a passenger type. */
const ExtrasPriceRow = () =>
  z.object({
    pax_type: z.enum(PAX_TYPES),
    count: z.number(),
    base: z.nullable(z.number()),
    taxes: z.nullable(z.number()),
    total: z.nullable(z.number()),
    service: z.optional(z.enum(['bags', 'seats'])),
  });

/** One change of a booking's flights: the changed journeys' segments before and after, and what it cost. */
const Change = () =>
  z.object({
    at: z.string(),
    by: Actor(),
    from: z.array(StoredSegment()),
    to: z.array(StoredSegment()),
    change_total: z.object({ amount: z.number(), currency: z.string() }),
  });
/** An agency's remark on a booking (docs/API.md §4.3, booking/note): never shown to the traveller. */
const Note = () =>
  z.object({ id: z.string(), text: z.string(), created_at: z.string(), created_by: Actor() });

/** Booking states (docs/API.md §4.3); PENDING and FAILED only with a remote supplier. */
export const BOOKING_STATUSES = ['CONFIRMED', 'CANCELLED', 'HELD', 'EXPIRED', 'PENDING', 'FAILED'] as const;

/** What the stored booking and the Booking resource share, field for field. */
const answered = () => ({
  booking_id: z.string(),
  /** Null while PENDING and when FAILED: the supplier gave no record locator (yet). */
  pnr: z.nullable(z.string()),
  status: z.enum(BOOKING_STATUSES),
  currency: z.string(),
  created_at: z.string(),
  cancelled_at: z.optional(z.string()),
  /** Who booked and who cancelled, as they were named then (absent on bookings made before). */
  created_by: z.optional(Actor()),
  cancelled_by: z.optional(Actor()),
  flight: Flight(),
  passengers: z.array(Passenger()),
  services: z.optional(z.array(BoughtService())),
  /** With bags or seats: the Flight's rows and theirs, summing to total_price (docs/API.md §4.10). */
  price_breakdown: z.optional(z.array(ExtrasPriceRow())),
  contact: z.object({ email: z.string(), phone: z.string() }),
  /** A hold's deadline (HELD, and EXPIRED once it passed): confirm before it (docs/API.md §4.4). */
  payment_required_by: z.optional(z.string()),
  /** A remote supplier's order (absent for the built-in network). */
  supplier: z.optional(z.object({ name: z.string(), order_id: z.optional(z.string()) })),
  /** What the cancellation refunded, in major units; null when the supplier did not know it. */
  refund: z.optional(z.nullable(z.object({ amount: z.number(), currency: z.string() }))),
  /** Where the cancellation's money went (absent on bookings cancelled before it was kept). */
  refund_to: z.optional(z.nullable(z.enum(REFUND_DESTINATIONS))),
  airline_credits: z.optional(z.array(AirlineCredit())),
  /** Absent on bookings stored before they were kept: read as created_at (or cancelled_at) and 1 (or 2). */
  updated_at: z.optional(z.string()),
  version: z.optional(z.number()),
  /** The changes made to the flights (docs/API.md §4.9), oldest first; absent before the first. */
  changes: z.optional(z.array(Change())),
  /** The agency's notes, oldest first (absent until the first): never in a webhook or a notice. */
  notes: z.optional(z.array(Note())),
});

const BookingItem = itemSchema(() =>
  z.object({
    ...answered(),
    /** 1 on create, +1 at each state change (absent on bookings stored before it was recorded: 1). */
    version: z.optional(z.int()),
    /** When the state last changed (absent before it was recorded: the last change's own time). */
    updated_at: z.optional(z.string()),
    /** Cents. */
    total: z.number(),
    /** First departure, epoch ms: cancellable until then. */
    departs_at: z.number(),
    agency_id: z.string(),
    agent_id: z.string(),
    travel_class: z.enum(TRAVEL_CLASSES),
    /** Seats held on every segment (infants hold none). */
    seats: z.number(),
    /** Remote suppliers: the offer-booked marker's key, released when the order failed. */
    offer_identity: z.optional(z.string()),
    /** Remote holds: a PENDING hold's deadline by our rule; the supplier call under way (supply/remote/hold.ts). */
    hold_until: z.optional(z.string()),
    hold_call: z.optional(z.object({ id: z.optional(z.string()), started_at: z.string() })),
    /**
     * A remote CONFIRMED booking's cancellation under way at the supplier (supply/remote/cancel.ts): the claim's
     * id while a request holds it; `started_at` and who asked, left behind when its outcome is unknown.
     */
    cancel_call: z.optional(z.object({ id: z.optional(z.string()), started_at: z.string(), by: Actor() })),
    /** A remote change under way (supply/remote/change.ts): its claim and, once made, the supplier's change id. */
    change_call: z.optional(
      z.object({
        id: z.optional(z.string()),
        started_at: z.string(),
        by: Actor(),
        change_id: z.optional(z.string()),
      }),
    ),
    /** When the itinerary was e-mailed again (booking/resend), for its hourly limit; absent until the first. */
    resent_at: z.optional(z.array(z.string())),
    /** Where the seats were taken, for returning them on cancel (in-table suppliers; empty otherwise). */
    segments: z.array(
      z.object({
        flight_number: z.string(),
        date: z.string(),
        bucket: z.number(),
        /** What the party paid for the segment, cents (absent on bookings stored before it was kept). */
        paid: z.optional(z.number()),
        /** The seats chosen on the flight-date, given back with the others. */
        seats: z.optional(z.array(z.string())),
      }),
    ),
  }),
);

/**
 * The Booking resource of docs/API.md §4.2, as answered and as kept for Idempotency-Key replays. An
 * answer stored before bookings carried `version` and `updated_at` reads as version 1 of its creation.
 */
const BookingViewItem = itemSchema(() =>
  z.pipe(
    z.object({
      ...answered(),
      total_price: z.number(),
      version: z.optional(z.int()),
      updated_at: z.optional(z.string()),
    }),
    z.transform((view) => ({
      ...view,
      flight: soldFlight(view.flight),
      version: view.version ?? 1,
      updated_at: view.updated_at ?? view.created_at,
    })),
  ),
);

/** A booking as stored (the item's attributes besides its keys). */
export type BookingRecord = z.output<ReturnType<typeof BookingItem>>;
export type BookingView = Omit<z.output<ReturnType<typeof BookingViewItem>>, 'updated_at' | 'version'> & {
  updated_at: string;
  version: number;
};

/** When a booking last changed and how many state changes it has had, for one stored before they were kept. */
export function changeStamp(record: {
  created_at: string;
  cancelled_at?: string | undefined;
  updated_at?: string | undefined;
  version?: number | undefined;
}): { updated_at: string; version: number } {
  return {
    updated_at: record.updated_at ?? record.cancelled_at ?? record.created_at,
    version: record.version ?? (record.cancelled_at ? 2 : 1),
  };
}

/** A Booking resource kept as JSON (an Idempotency-Key's stored answer), checked. */
export function parseBookingView(data: unknown): BookingView {
  const view = parseItem('stored booking answer', BookingViewItem(), data);
  return { ...view, ...changeStamp(view) };
}

/** The Put that stores a new booking, listed under its agency; never over an existing one. */
export function newBookingItem(tableName: string, record: BookingRecord) {
  return {
    TableName: tableName,
    Item: {
      ...bookingKey(record.booking_id),
      ...listingKey(record.agency_id, { createdAt: record.created_at, bookingId: record.booking_id }),
      ...record,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** The booking with `bookingId`, whoever's it is: for the sweep, which acts for no agency. */
export async function readBooking(store: TableHandle, bookingId: string): Promise<BookingRecord | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: bookingKey(bookingId), ConsistentRead: true }),
  );
  return Item && parseItem('booking', BookingItem(), Item);
}

/** A booking item as DynamoDB or its stream (the events function) holds it; undefined for another kind. */
export function readBookingItem(item: Record<string, unknown>): BookingRecord | undefined {
  if (!isBookingKey(item)) return undefined;
  return parseItem('booking', BookingItem(), item);
}

/** Whether `key` is a booking item's key (the events function tells bookings from other items by it). */
export const isBookingKey = (key: { pk?: unknown; sk?: unknown }) =>
  typeof key.pk === 'string' && key.pk.startsWith(bookingKey('').pk) && key.sk === bookingKey('').sk;

/**
 * The bookings with `bookingIds` (at most 100: one BatchGetItem, keys left unprocessed asked again),
 * in the order asked; an id with no booking is left out.
 */
export async function readBookings(
  store: TableHandle,
  bookingIds: readonly string[],
): Promise<BookingRecord[]> {
  if (bookingIds.length === 0) return [];
  const found = new Map<string, BookingRecord>();
  let pending: Record<string, unknown>[] = bookingIds.map(bookingKey);
  await retrying(async () => {
    const { Responses, UnprocessedKeys } = await store.db.send(
      new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: pending } } }),
    );
    for (const item of Responses?.[store.tableName] ?? []) {
      const record = parseItem('booking', BookingItem(), item);
      found.set(record.booking_id, record);
    }
    pending = UnprocessedKeys?.[store.tableName]?.Keys ?? [];
    return pending.length > 0 ? TRY_AGAIN : undefined;
  });
  return bookingIds.flatMap((id) => found.get(id) ?? []);
}

/** The booking with `bookingId` if it belongs to `agencyId`; another agency's is as absent as none. */
export async function findBooking(
  store: TableHandle,
  bookingId: string,
  agencyId: string,
): Promise<BookingRecord | undefined> {
  const record = await readBooking(store, bookingId);
  return record?.agency_id === agencyId ? record : undefined;
}

/**
 * Why a change's write found the booking no longer as read (docs/API.md §4.9): no longer CONFIRMED
 * (cancelled meanwhile) is 409 NOT_CHANGEABLE; changed again (another change stored first) is 410,
 * the change offer being for a version that is gone. Both flows' changes, network and remote.
 */
export async function changeLostToAnotherWrite(store: TableHandle, record: BookingRecord): Promise<Error> {
  const now = await findBooking(store, record.booking_id, record.agency_id);
  if (now?.status !== 'CONFIRMED')
    return new NotChangeableError(`A ${now?.status ?? 'deleted'} booking cannot be changed.`);
  return new OfferExpiredError();
}

/** One Query of the agency's listing after `after`, `read` items at most, kept if stored in `statuses`
 * (a FilterExpression: each item read is paid for); `next` starts the next Query (agency-listing.ts). */
export async function queryAgencyListing(
  store: TableHandle,
  agencyId: string,
  query: { after: ListPosition | undefined; read: number; statuses?: readonly string[] },
): Promise<{ records: BookingRecord[]; next: ListPosition | undefined }> {
  const statuses = query.statuses ?? [];
  const result = await store.db.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :agency',
      ...(statuses.length > 0 && { FilterExpression: `#status IN (${statuses.map((_, i) => `:s${i}`)})` }),
      ...(statuses.length > 0 && { ExpressionAttributeNames: { '#status': 'status' } }),
      ExpressionAttributeValues: {
        ':agency': agencyPartition(agencyId),
        ...Object.fromEntries(statuses.map((status, i) => [`:s${i}`, status])),
      },
      ScanIndexForward: false,
      Limit: query.read,
      ExclusiveStartKey: query.after && {
        ...bookingKey(query.after.bookingId),
        ...listingKey(agencyId, query.after),
      },
    }),
  );
  const last = result.LastEvaluatedKey?.gsi1sk;
  return {
    records: (result.Items ?? []).map((item) => parseItem('booking', BookingItem(), item)),
    next: typeof last === 'string' ? readListPosition(last) : undefined,
  };
}
