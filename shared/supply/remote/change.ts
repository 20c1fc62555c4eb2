import { bookingView, CALL_LEASE_MS } from '../../bookings/entity/booking.ts';
import {
  claimChangeCall,
  clearLeftCall,
  noteChangeId,
  releaseChangeCall,
} from '../../bookings/entity/booking-calls.ts';
import { changeWrites } from '../../bookings/entity/booking-ends.ts';
import {
  type BookingRecord,
  type BookingView,
  changeLostToAnotherWrite,
  changeStamp,
  findBooking,
} from '../../bookings/entity/booking-item.ts';
import { listCall } from '../../bookings/entity/call-item.ts';
import type { IdempotencyLock } from '../../bookings/entity/idempotency-item.ts';
import { soldFlight } from '../../bookings/entity/stored-flight.ts';
import type { ChangeDeps, ChangeFlow, ChangeOrder } from '../../bookings/flow.ts';
import { isoSeconds } from '../../clock.ts';
import { TRY_AGAIN } from '../../db/retry.ts';
import { slotted, transact } from '../../db/transaction.ts';
import {
  ChangePriceChangedError,
  IdempotencyInProgressError,
  NotChangeableError,
  NotFoundError,
  OfferExpiredError,
  ServiceUnavailableError,
} from '../../errors.ts';
import type { FlightView } from '../../flights/flight-view.ts';
import { minorUnits, toMajor } from '../../money.ts';
import type { RemoteOrders, SupplierChange } from '../port.ts';
import {
  openRemoteChange,
  remoteChangeOffers,
  type SealedChange,
  searchRemoteChanges,
} from './change-search.ts';

/**
 * booking/change with a remote supplier (docs/API.md §4.9), exactly once across the outside call (§4.5):
 * the booking is claimed (`change_call`, at the version quoted) before anything is sent; the supplier's
 * pending change is made from the sealed offer and its id noted on the claim; it is confirmed once; an
 * answer lost (a timeout, a 5xx after sending) is settled by reading the change — in the request, or by
 * the next request for the booking, which finds the change id left on the claim — never by confirming
 * again. Then one transaction stores the order's journeys as the booking's flight, `changes[]` and
 * version + 1 (the `booking.changed` event, as on the network), and the Idempotency-Key's answer.
 */

type Deps = ChangeDeps;
/** What storing a change needs: the table and the clock (the sweep has no offer key). */
type StoreDeps = Pick<ChangeDeps, 'db' | 'tableName' | 'clock'>;
type Actor = { id: string; name: string };

const byOf = (request: ChangeOrder): Actor => ({
  id: request.session.agentId,
  name: request.session.agentName,
});

/** Change's part of the remote flow: the supplier's own changes, searched (change-search.ts) and made here. */
export const remoteChanging = (orders: RemoteOrders): ChangeFlow => ({
  changes: {
    search: (deps, record, request) => searchRemoteChanges(orders, deps, record, request),
    change: (deps, request, lock) => changeRemotely(orders, deps, request, lock),
  },
});

/** The change request's offer, checked: the booking's (404), the offer issued for it (404), CONFIRMED (409). */
async function checked(deps: Deps, request: ChangeOrder) {
  const { body, session } = request;
  const record = await findBooking(deps, body.booking_id, session.agencyId);
  if (!record) throw new NotFoundError('No such booking in your agency.');
  const sealed = openRemoteChange(deps.keys.offer, body.change_offer_id);
  if (!sealed || sealed.a !== session.agencyId || sealed.b !== record.booking_id)
    throw new NotFoundError('No such change offer for this booking.');
  if (record.status !== 'CONFIRMED')
    throw new NotChangeableError(`A ${record.status} booking cannot be changed.`);
  return { record, sealed };
}

/** 409 PRICE_CHANGED with the change as the supplier offers it now (410 when it offers none). */
async function priceChanged(orders: RemoteOrders, deps: Deps, record: BookingRecord, sealed: SealedChange) {
  const [fresh] = await remoteChangeOffers(orders, deps, record, sealed.j);
  if (!fresh) return new OfferExpiredError();
  return new ChangePriceChangedError({
    previous_total_price: toMajor(sealed.t, sealed.u),
    total_price: fresh.change_total.amount,
    currency: fresh.change_total.currency,
    change_offer: fresh,
  });
}

/** The minor units the request sends, signed; NaN when not an amount of its currency. */
const sentTotal = ({ amount, currency }: { amount: number; currency: string }) =>
  Math.sign(amount) * (minorUnits(String(Math.abs(amount)), currency) ?? Number.NaN);

async function changeRemotely(
  orders: RemoteOrders,
  deps: Deps,
  request: ChangeOrder,
  lock: IdempotencyLock | undefined,
): Promise<BookingView> {
  const { record, sealed } = await checked(deps, request);
  const settled = await readLeftChange(orders, deps, record, request, lock);
  if (settled) return settled;
  const now = deps.clock.now();
  if (now >= sealed.x * 1000 || changeStamp(record).version !== sealed.r) throw new OfferExpiredError();
  const total = request.body.change_total;
  if (total.currency !== sealed.u || sentTotal(total) !== sealed.t)
    throw await priceChanged(orders, deps, record, sealed);
  const booking = { booking_id: record.booking_id, version: sealed.r };
  // Listed first, so that the sweep finds a call whose request dies after claiming (left-calls.ts).
  await listCall(deps, { booking_id: record.booking_id, started_at: isoSeconds(now) });
  const claim = await claimChangeCall(deps, booking, now, byOf(request));
  if (!claim) throw new ServiceUnavailableError(2);
  const release = () => releaseChangeCall(deps, record.booking_id, claim).catch(() => undefined);
  let change: SupplierChange;
  try {
    change = await orders.createChange(sealed.d);
  } catch (error) {
    await release();
    throw error;
  }
  if (change.changeTotal !== sealed.t || change.currency !== sealed.u) {
    await release();
    throw await priceChanged(orders, deps, record, sealed);
  }
  await noteChangeId(deps, record.booking_id, claim, change.id);
  const outcome = await orders.confirmChange(change);
  if (outcome.kind === 'refused') {
    await release();
    throw outcome.error;
  }
  // No answer to trust: the change says whether it was confirmed; the claim stays until it does.
  if (outcome.kind === 'unknown' && !(await orders.readChange(change.id)).confirmed)
    throw new ServiceUnavailableError(5);
  return storeChanged(orders, deps, { record, change, by: byOf(request), lock });
}

/**
 * A change left behind by an earlier request (its confirm's answer lost): read, never confirmed again.
 * Confirmed: stored now, and this request answers the booking changed. Not confirmed: a live claim is
 * 503 (its request is still at it); a stale one changed nothing and is released. Undefined: go on.
 */
async function readLeftChange(
  orders: RemoteOrders,
  deps: Deps,
  record: BookingRecord,
  request: ChangeOrder,
  lock: IdempotencyLock | undefined,
): Promise<BookingView | undefined> {
  const left = record.change_call;
  if (!left?.change_id) return undefined;
  const change = await orders.readChange(left.change_id);
  if (change.confirmed) return storeChanged(orders, deps, { record, change, by: byOf(request), lock });
  if (Date.parse(left.started_at) > deps.clock.now() - CALL_LEASE_MS) throw new ServiceUnavailableError(5);
  if (left.id) await releaseChangeCall(deps, record.booking_id, left.id).catch(() => undefined);
  return undefined;
}

/** Segment keys: a segment kept by the change is in both trips. */
const keyOf = (s: { flight_number: string; departure_at: string }) => `${s.flight_number}@${s.departure_at}`;

/** The trip as the order now is, and the `changes[]` entry: the segments gone and the segments new. */
function changedTrip(
  deps: StoreDeps,
  made: { record: BookingRecord; change: SupplierChange; by: Actor },
  order: Awaited<ReturnType<RemoteOrders['readJourneys']>>,
) {
  const { record, change, by } = made;
  const old = soldFlight(record.flight) as FlightView;
  const journeys = order.journeys;
  const flight: FlightView = {
    ...old,
    total_price: toMajor(order.total, order.currency),
    outbound: journeys[0] ?? old.outbound,
    ...(old.inbound && journeys[1] && { inbound: journeys[1] }),
    slices: journeys,
  };
  const before = new Set(old.slices.flatMap((s) => s.segments).map(keyOf));
  const after = new Set(journeys.flatMap((s) => s.segments).map(keyOf));
  const at = isoSeconds(deps.clock.now());
  const entry = {
    at,
    by,
    from: old.slices.flatMap((s) => s.segments).filter((s) => !after.has(keyOf(s))),
    to: journeys.flatMap((s) => s.segments).filter((s) => !before.has(keyOf(s))),
    change_total: { amount: toMajor(change.changeTotal, change.currency), currency: change.currency },
  };
  const first = journeys[0]?.segments[0]?.departure_at;
  return {
    at,
    flight,
    segments: [],
    total: order.total,
    departs_at: first ? Date.parse(first) : record.departs_at,
    change: entry,
    // Seats and bags chosen on Duffel are the airline's after a change: the booking stops listing them,
    // services too (no `services` here)
    // (docs/decisions.md, "Changes from Duffel").
    passengers: record.passengers.map(({ seats: _, ...passenger }) => passenger),
  };
}

/** The booking as the confirmed change made it: the order's journeys and total, version + 1, `changes[]`. */
async function storeChanged(
  orders: RemoteOrders,
  deps: StoreDeps,
  made: { record: BookingRecord; change: SupplierChange; by: Actor; lock: IdempotencyLock | undefined },
): Promise<BookingView> {
  const { record, lock } = made;
  const changed = changedTrip(deps, made, await orders.readJourneys(record.supplier?.order_id ?? ''));
  const view = bookingView({
    ...record,
    ...changed,
    updated_at: changed.at,
    version: changeStamp(record).version + 1,
    changes: [...(record.changes ?? []), changed.change],
  });
  return transact(
    deps.db,
    () => slotted(changeWrites(deps.tableName, record, { ...changed, view, lock }, { back: [], taken: [] })),
    {
      written: () => view,
      cancelled: async (failed, error): Promise<typeof TRY_AGAIN> => {
        if (failed.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
        if (failed.conditionFailed('booking')) throw await changeLostToAnotherWrite(deps, record);
        if (failed.any('TransactionConflict') || failed.any('ThrottlingError')) return TRY_AGAIN;
        throw error;
      },
    },
  );
}

/**
 * The sweep's part (left-calls.ts): a change call whose lease passed. Its change confirmed at the
 * supplier → stored on the booking, for the agent who asked; otherwise (never made, or not confirmed)
 * the call is cleared and the booking stays as it was. Never confirmed here.
 */
export async function settleLeftChange(
  deps: StoreDeps,
  orders: RemoteOrders,
  record: BookingRecord,
): Promise<'changed' | 'cleared'> {
  const call = record.change_call;
  if (!call) return 'cleared';
  const change = call.change_id ? await orders.readChange(call.change_id) : undefined;
  if (change?.confirmed) {
    await storeChanged(orders, deps, { record, change, by: call.by, lock: undefined });
    return 'changed';
  }
  await clearLeftCall(deps, record.booking_id, { attribute: 'change_call', started_at: call.started_at });
  return 'cleared';
}
