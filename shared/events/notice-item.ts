import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed, itemAtFailedCondition, type TableHandle } from '../db/client.ts';
import { eventPartition, ttlFromMillis } from '../db/table.ts';

/**
 * The notice guard item (`EVENT#<event id>` / `NOTICE`): the stream delivers a record at least once,
 * and this makes the traveller's e-mail go out once per event. Sending is claimed for a short lease
 * first (a crashed send can be taken over after it), then recorded as sent.
 */
const noticeKey = (eventId: string) => ({ pk: eventPartition(eventId), sk: 'NOTICE' });

/** Longer than an SES call with its retries; a claim older than this is taken to have crashed. */
const NOTICE_LEASE_MS = 60_000;
/** Kept well past the stream's 24-hour retention, within which a record can come back. */
const KEEP_MS = 7 * 86_400_000;

/**
 * `claimed`: send it now. `sent`: already done (sent, or refused by SES for good). `busy`: another
 * invocation holds a live claim.
 */
type NoticeClaim = 'claimed' | 'sent' | 'busy';

export async function claimNotice(store: TableHandle, eventId: string, now: number): Promise<NoticeClaim> {
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...noticeKey(eventId),
          state: 'sending',
          lease_until: now + NOTICE_LEASE_MS,
          ttl: ttlFromMillis(now + KEEP_MS),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND lease_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const state = itemAtFailedCondition(error)?.state;
    return state === 'sent' || state === 'refused' ? 'sent' : 'busy';
  }
}

/**
 * Records the notice as sent, or as refused by SES for good (`refused`, with the error's name): later
 * deliveries of the event's record send nothing.
 */
export async function markNoticeSent(
  store: TableHandle,
  eventId: string,
  at: number,
  refused?: { reason: string },
): Promise<void> {
  await store.db.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: noticeKey(eventId),
      UpdateExpression: refused
        ? 'SET #state = :refused, refused_at = :at, reason = :reason REMOVE lease_until'
        : 'SET #state = :sent, sent_at = :at REMOVE lease_until',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: refused
        ? { ':refused': 'refused', ':at': at, ':reason': refused.reason }
        : { ':sent': 'sent', ':at': at },
    }),
  );
}

/** Gives a claim back after a failed send, so the stream's retry sends at once rather than after the lease. */
export async function releaseNotice(store: TableHandle, eventId: string): Promise<void> {
  await store.db
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: noticeKey(eventId),
        UpdateExpression: 'SET lease_until = :zero',
        ConditionExpression: '#state = :sending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':zero': 0 },
      }),
    )
    .catch(() => undefined);
}
