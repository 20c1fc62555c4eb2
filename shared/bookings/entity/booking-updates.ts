import { DEADLINE_AHEAD, DEADLINE_PASSED } from './booking.ts';
import { bookingKey, type Cancellation } from './booking-item.ts';

/** What a cancel gave back, as stored with it: the fields given (a refund may be null: unknown). */
const GIVEN_BACK = ['refund', 'refund_to', 'airline_credits'] as const;
function givenBack(cancelled: Cancellation) {
  const given = GIVEN_BACK.filter((field) => cancelled[field] !== undefined);
  return {
    set: given.map((field) => `, ${field} = :${field}`).join(''),
    values: Object.fromEntries(given.map((field) => [`:${field}`, cancelled[field]])),
  };
}

/**
 * The state changes of a stored booking (docs/API.md §4.3), each an Update conditioned on the state it
 * leaves, that moves `updated_at` and `version` with it.
 */

/**
 * The Update that cancels a booking, only while it is still in the state it was read in: CONFIRMED, or
 * HELD with its deadline still ahead of `at`, the writer's clock as it writes (the deadline rule,
 * booking.ts; a late hold expires instead: it cannot be both). A hold
 * confirmed meanwhile is not cancelled as the hold it was read as (its refund would be lost).
 */
export function cancelBookingUpdate(
  tableName: string,
  booking: { booking_id: string; version: number; status: 'CONFIRMED' | 'HELD' },
  cancelled: Cancellation,
  /** A remote hold: the claim under which its order was cancelled at the supplier (supply/remote/hold.ts). */
  claim?: string,
) {
  const held = claim ? '#status = :from AND hold_call.id = :claim' : `#status = :from AND ${DEADLINE_AHEAD}`;
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    // A booking carries its deadline only while HELD (and once EXPIRED).
    UpdateExpression: `SET #status = :cancelled, cancelled_at = :at, cancelled_by = :by, updated_at = :at, version = :version${givenBack(cancelled).set} REMOVE payment_required_by, hold_call`,
    // A CONFIRMED booking is cancelled only as it was read: a change of its flights meanwhile (a new
    // version, other seats) makes this write lose, so the seats given back are never the old ones.
    ConditionExpression:
      booking.status === 'HELD'
        ? held
        : '#status = :from AND (version = :read OR attribute_not_exists(version))',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':cancelled': 'CANCELLED',
      ':from': booking.status,
      ':at': cancelled.at,
      ':by': cancelled.by,
      ':version': booking.version + 1,
      ...givenBack(cancelled).values,
      ...(claim && { ':claim': claim }),
      ...(booking.status === 'CONFIRMED' && { ':read': booking.version }),
    },
  };
}

/**
 * The Update that confirms a hold: only while it is HELD and its deadline is still ahead of `at`, the
 * writer's clock as it writes (the deadline rule, booking.ts), so confirm and expiry (or cancel) cannot
 * both win and the stored write alone decides which did. The deadline goes: a confirmed booking has none.
 */
export function confirmHoldUpdate(
  tableName: string,
  booking: { booking_id: string; version: number },
  at: string,
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression:
      'SET #status = :confirmed, updated_at = :at, version = :version REMOVE payment_required_by',
    ConditionExpression: `#status = :held AND ${DEADLINE_AHEAD}`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':confirmed': 'CONFIRMED',
      ':held': 'HELD',
      ':at': at,
      ':version': booking.version + 1,
    },
  };
}

/** A supplier call named by its claim (`id`) or, left behind, by its start: the condition on `:call`. */
const sameCall = (attribute: 'hold_call' | 'cancel_call', call: { id: string } | { started_at: string }) =>
  `${attribute}.${'id' in call ? 'id' : 'started_at'} = :call`;
const callValue = (call: { id: string } | { started_at: string }) =>
  'id' in call ? call.id : call.started_at;

/**
 * The Update that confirms a remote hold its supplier has been paid for (supply/remote/hold.ts): only while it
 * is HELD under the same supplier call (`id`: the request's claim; `started_at`: the call the sweep found
 * left behind), whatever the clock says — the call was claimed before the deadline. `total`: the amount
 * paid, which the supplier may have moved since the hold.
 */
export function confirmPaidHoldUpdate(
  tableName: string,
  booking: { booking_id: string; version: number; total: number },
  at: string,
  call: { id: string } | { started_at: string },
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression:
      'SET #status = :confirmed, updated_at = :at, version = :version, #total = :total REMOVE payment_required_by, hold_call',
    ConditionExpression: `#status = :held AND ${sameCall('hold_call', call)}`,
    ExpressionAttributeNames: { '#status': 'status', '#total': 'total' },
    ExpressionAttributeValues: {
      ':confirmed': 'CONFIRMED',
      ':held': 'HELD',
      ':at': at,
      ':version': booking.version + 1,
      ':total': booking.total,
      ':call': callValue(call),
    },
  };
}

/**
 * The Update that expires a late hold: only while it is HELD with its deadline at or before `at`. It
 * changed at its deadline, whenever the sweep gets to it, as every read already answered.
 */
export function expireHoldUpdate(
  tableName: string,
  booking: { booking_id: string; version: number; payment_required_by: string },
  at: string,
  /** A remote hold's supplier call that its supplier says did not pay: expired only if still that one. */
  leftCall?: string,
) {
  const call = leftCall ? 'hold_call.started_at = :call' : 'attribute_not_exists(hold_call)';
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: 'SET #status = :expired, updated_at = :deadline, version = :version REMOVE hold_call',
    ConditionExpression: `#status = :held AND ${DEADLINE_PASSED} AND ${call}`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':expired': 'EXPIRED',
      ':held': 'HELD',
      ':at': at,
      ':deadline': booking.payment_required_by,
      ':version': booking.version + 1,
      ...(leftCall && { ':call': leftCall }),
    },
  };
}

/**
 * The Update that shows a PENDING booking to a client for the first time: written at version 0 while
 * its request waits for the supplier (no client has seen it), it becomes version 1, the first state a
 * client sees (docs/API.md §4.3). Only while still PENDING at 0: a settle that got there first wins,
 * and the booking is then first seen settled, at version 1.
 */
export function showPendingUpdate(tableName: string, bookingId: string) {
  return {
    TableName: tableName,
    Key: bookingKey(bookingId),
    UpdateExpression: 'SET version = :shown',
    ConditionExpression: '#status = :pending AND version = :unseen',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'PENDING', ':unseen': 0, ':shown': 1 },
  };
}

/**
 * The Update that settles a PENDING booking to CONFIRMED or HELD (with its PNR and order) or FAILED,
 * one version on from `version`, the one read: only from PENDING at that version, so a sweep and a
 * request settling the same booking cannot both apply, and a client shown the PENDING booking meanwhile
 * (showPendingUpdate) sees the settled one a version later.
 */
export function settleBookingUpdate(
  tableName: string,
  bookingId: string,
  settled: {
    /** The PENDING booking's version, as read. */
    version: number;
    status: 'CONFIRMED' | 'FAILED' | 'HELD';
    at: string;
    pnr?: string;
    supplier: { name: string; order_id?: string };
    /** A hold's deadline (HELD). */
    payment_required_by?: string;
  },
) {
  const deadline = settled.payment_required_by ? ', payment_required_by = :deadline' : '';
  return {
    TableName: tableName,
    Key: bookingKey(bookingId),
    UpdateExpression: `SET #status = :status, updated_at = :at, version = :version, supplier = :supplier${settled.pnr ? ', pnr = :pnr' : ''}${deadline} REMOVE hold_until`,
    ConditionExpression: '#status = :pending AND version = :read',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':status': settled.status,
      ':pending': 'PENDING',
      ':at': settled.at,
      ':read': settled.version,
      ':version': settled.version + 1,
      ':supplier': settled.supplier,
      ...(settled.pnr && { ':pnr': settled.pnr }),
      ...(settled.payment_required_by && { ':deadline': settled.payment_required_by }),
    },
  };
}

/**
 * The Update that cancels a remote CONFIRMED booking whose order its supplier has cancelled
 * (supply/remote/cancel.ts): only while it is CONFIRMED under the same cancellation call (`id`: the request's
 * claim; `started_at`: the call the sweep found left behind). A `refund` the supplier does not know
 * is recorded null (never 0).
 */
export function cancelOrderUpdate(
  tableName: string,
  booking: { booking_id: string; version: number },
  cancelled: Cancellation,
  call: { id: string } | { started_at: string },
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: `SET #status = :cancelled, cancelled_at = :at, cancelled_by = :by, updated_at = :at, version = :version${givenBack(cancelled).set} REMOVE cancel_call`,
    ConditionExpression: `#status = :confirmed AND ${sameCall('cancel_call', call)}`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':cancelled': 'CANCELLED',
      ':confirmed': 'CONFIRMED',
      ':at': cancelled.at,
      ':by': cancelled.by,
      ':version': booking.version + 1,
      ...givenBack(cancelled).values,
      ':call': callValue(call),
    },
  };
}

/**
 * The Update that changes a booking's flights (docs/API.md §4.9): only while it is CONFIRMED at the
 * version the change was quoted for, so a change is made once and never over another write. The
 * change is appended to `changes`; the trip, its seats' segments, total and first departure replaced.
 */
export function changeFlightsUpdate(
  tableName: string,
  booking: { booking_id: string; version: number },
  changed: {
    at: string;
    flight: unknown;
    segments: { flight_number: string; date: string; bucket: number }[];
    total: number;
    departs_at: number;
    change: unknown;
    /** The passengers without the seats of the journeys changed, and the bags kept (none left: removed). */
    passengers: unknown[];
    services?: unknown[] | undefined;
  },
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: `SET #flight = :flight, #segments = :segments, #total = :total, departs_at = :departs, updated_at = :at, version = :next, #changes = list_append(if_not_exists(#changes, :none), :change), #passengers = :passengers${changed.services ? ', #services = :services REMOVE change_call' : ' REMOVE #services, change_call'}`,
    ConditionExpression:
      '#status = :confirmed AND (version = :version OR (attribute_not_exists(version) AND :version = :one))',
    ExpressionAttributeNames: {
      '#status': 'status',
      '#total': 'total',
      '#flight': 'flight',
      '#segments': 'segments',
      '#changes': 'changes',
      '#passengers': 'passengers',
      '#services': 'services',
    },
    ExpressionAttributeValues: {
      ':flight': changed.flight,
      ':segments': changed.segments,
      ':total': changed.total,
      ':departs': changed.departs_at,
      ':at': changed.at,
      ':next': booking.version + 1,
      ':none': [],
      ':change': [changed.change],
      ':passengers': changed.passengers,
      ...(changed.services && { ':services': changed.services }),
      ':confirmed': 'CONFIRMED',
      ':version': booking.version,
      ':one': 1,
    },
  };
}

/** A note as stored and answered (booking/note). */
export interface StoredNote {
  readonly id: string;
  readonly text: string;
  readonly created_at: string;
  readonly created_by: { id: string; name: string };
}

/**
 * The Update that appends `note` to an agency's booking, only while it holds exactly `seen` notes (so
 * two notes at once cannot pass the cap, and each is told what it appended after); with `resentAt`,
 * also the time of an itinerary resend (its hourly limit). Not a state change: `version`, `updated_at`
 * and the status stay, so no event follows (events/booking-event.ts).
 */
export function addNoteUpdate(
  tableName: string,
  booking: { booking_id: string; agency_id: string; seen: number },
  note: StoredNote,
  resentAt?: string,
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: `SET notes = list_append(if_not_exists(notes, :none), :note)${resentAt ? ', resent_at = list_append(if_not_exists(resent_at, :none), :resent)' : ''}`,
    ConditionExpression:
      booking.seen === 0
        ? 'agency_id = :agency AND attribute_not_exists(notes)'
        : 'agency_id = :agency AND size(notes) = :seen',
    ExpressionAttributeValues: {
      ':none': [],
      ':note': [note],
      ':agency': booking.agency_id,
      ...(booking.seen > 0 && { ':seen': booking.seen }),
      ...(resentAt && { ':resent': [resentAt] }),
    },
    ReturnValues: 'ALL_NEW' as const,
  };
}

/**
 * The Update that takes back the note at `index` (a resend that SES did not take), only if it is still
 * the note with `noteId` there; and the resend's time with it (the last one).
 */
export function takeBackNoteUpdate(
  tableName: string,
  booking: { booking_id: string; index: number; resends: number },
  noteId: string,
) {
  return {
    TableName: tableName,
    Key: bookingKey(booking.booking_id),
    UpdateExpression: `REMOVE notes[${booking.index}], resent_at[${booking.resends - 1}]`,
    ConditionExpression: `notes[${booking.index}].id = :id`,
    ExpressionAttributeValues: { ':id': noteId },
  };
}
