import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isoSeconds } from '../../clock.ts';
import { isConditionFailed, type TableHandle } from '../../db/client.ts';
import { CALL_LEASE_MS, DEADLINE_AHEAD } from './booking.ts';
import { type BookingRecord, bookingKey, readBooking } from './booking-item.ts';
import { showPendingUpdate } from './booking-updates.ts';

/**
 * The booking entity's one-shot writes (part of its home, booking-item.ts): a PENDING booking's first
 * showing ({@link shownPending}), and the claims on a remote supplier's calls: a hold's
 * payment or cancellation (`hold_call`), a CONFIRMED booking's cancellation (`cancel_call`). Each claim
 * is one conditional write that at most one request wins; a claim older than {@link CALL_LEASE_MS} is a
 * dead request's and may be taken over. Releasing one that may have changed the order leaves its
 * `started_at` behind, for the next request or the sweep to settle by reading the order.
 */

type Actor = { id: string; name: string };

const newClaim = () => randomBytes(12).toString('base64url');

/**
 * Claims the hold for one supplier call; undefined when it is not HELD in time (by the deadline rule,
 * booking.ts, with `now` the writer's clock as it writes) or another call is live.
 */
export async function claimHoldCall(store: TableHandle, bookingId: string, now: number) {
  const id = newClaim();
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: bookingKey(bookingId),
        UpdateExpression: 'SET hold_call = :call',
        ConditionExpression: `#status = :held AND ${DEADLINE_AHEAD} AND (attribute_not_exists(hold_call.id) OR hold_call.started_at < :stale)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':call': { id, started_at: isoSeconds(now) },
          ':held': 'HELD',
          ':at': isoSeconds(now),
          ':stale': isoSeconds(now - CALL_LEASE_MS),
        },
      }),
    );
    return id;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/**
 * Claims a CONFIRMED booking for one cancellation; undefined when it is not CONFIRMED or another call is
 * live. `left`: an earlier call's start, when one was left behind (its outcome unknown).
 */
export async function claimCancelCall(
  store: TableHandle,
  bookingId: string,
  startedAt: string,
  by: Actor,
): Promise<{ claim: string; left: string | undefined } | undefined> {
  const id = newClaim();
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: bookingKey(bookingId),
        UpdateExpression: 'SET cancel_call = :call',
        ConditionExpression:
          '#status = :confirmed AND (attribute_not_exists(cancel_call.id) OR cancel_call.started_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':call': { id, started_at: startedAt, by },
          ':confirmed': 'CONFIRMED',
          ':stale': isoSeconds(Date.parse(startedAt) - CALL_LEASE_MS),
        },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const left = (Attributes?.cancel_call as { started_at?: unknown } | undefined)?.started_at;
    return { claim: id, left: typeof left === 'string' ? left : undefined };
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/**
 * Ends a claim (`hold_call`'s or `cancel_call`'s) that did not change the booking; only while it is still
 * that claim. `leaveStart`: the supplier may have taken a payment or cancelled the order, so the call's
 * start stays behind for the next request or the sweep. Callers treat it as best effort: an unreleased
 * claim lapses by itself.
 */
export async function releaseCall(
  store: TableHandle,
  bookingId: string,
  call: { attribute: 'hold_call' | 'cancel_call'; claim: string; leaveStart: boolean },
): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: bookingKey(bookingId),
      UpdateExpression: `REMOVE ${call.attribute}${call.leaveStart ? '.id' : ''}`,
      ConditionExpression: `${call.attribute}.id = :claim`,
      ExpressionAttributeValues: { ':claim': call.claim },
    }),
  );
}

/**
 * Clears a call left behind that changed nothing at the supplier (the sweep, supply/remote/left-calls.ts): only while
 * it is still that call (`started_at`), and for a hold only while HELD. Answers false when a request
 * claimed or settled the booking meanwhile (it asks the supplier itself).
 */
export async function clearLeftCall(
  store: TableHandle,
  bookingId: string,
  left: { attribute: 'hold_call' | 'cancel_call' | 'change_call'; started_at: string },
): Promise<boolean> {
  const held = left.attribute === 'hold_call';
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: bookingKey(bookingId),
        UpdateExpression: `REMOVE ${left.attribute}`,
        ConditionExpression: held
          ? '#status = :held AND hold_call.started_at = :started'
          : `${left.attribute}.started_at = :started`,
        ...(held && { ExpressionAttributeNames: { '#status': 'status' } }),
        ExpressionAttributeValues: { ':started': left.started_at, ...(held && { ':held': 'HELD' }) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/**
 * A PENDING booking as a client is shown it: the first time, version 0 (written while its request waits
 * for the supplier) becomes 1 — so the first state any client sees is version 1, whether that is this
 * PENDING or the settled booking (docs/API.md §4.3). A settle that got there first is answered instead.
 */
export async function shownPending(deps: TableHandle, record: BookingRecord): Promise<BookingRecord> {
  if (record.status !== 'PENDING' || record.version !== 0) return record;
  try {
    await deps.db.send(new UpdateCommand(showPendingUpdate(deps.tableName, record.booking_id)));
    return { ...record, version: 1 };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return (await readBooking(deps, record.booking_id)) ?? record;
  }
}

/**
 * Claims a CONFIRMED booking at `version` for one remote change (supply/remote/change.ts); undefined when
 * it is no longer that booking or another change call is live.
 */
export async function claimChangeCall(
  store: TableHandle,
  booking: { booking_id: string; version: number },
  now: number,
  by: Actor,
): Promise<string | undefined> {
  const id = newClaim();
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: bookingKey(booking.booking_id),
        UpdateExpression: 'SET change_call = :call',
        ConditionExpression:
          '#status = :confirmed AND (version = :version OR (attribute_not_exists(version) AND :version = :one)) AND (attribute_not_exists(change_call.id) OR change_call.started_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':call': { id, started_at: isoSeconds(now), by },
          ':confirmed': 'CONFIRMED',
          ':version': booking.version,
          ':one': 1,
          ':stale': isoSeconds(now - CALL_LEASE_MS),
        },
      }),
    );
    return id;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** Notes the supplier's change id on the claim `claim`: what a lost confirm is settled by reading. */
export async function noteChangeId(store: TableHandle, bookingId: string, claim: string, changeId: string) {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: bookingKey(bookingId),
      UpdateExpression: 'SET change_call.change_id = :change',
      ConditionExpression: 'change_call.id = :claim',
      ExpressionAttributeValues: { ':claim': claim, ':change': changeId },
    }),
  );
}

/** Ends a change claim that changed nothing at the supplier, while it is still `claim`. */
export async function releaseChangeCall(store: TableHandle, bookingId: string, claim: string) {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: bookingKey(bookingId),
      UpdateExpression: 'REMOVE change_call',
      ConditionExpression: 'change_call.id = :claim',
      ExpressionAttributeValues: { ':claim': claim },
    }),
  );
}
