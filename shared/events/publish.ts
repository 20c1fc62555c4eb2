import { readAgencyName } from '../agency/agency-counters-item.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import type { LogFields, Logger } from '../log.ts';
import { type BookingEvent, bookingEventOf, type StreamRecord } from './booking-event.ts';
import { createDelivery } from './delivery-item.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { NOTICE_TYPES, type Notice, NoticeRefusedError, renderNotice } from './notice.ts';
import { claimNotice, markNoticeSent, releaseNotice } from './notice-item.ts';
import type { NoticeSender } from './notice-sender.ts';
import { PING_EVENT_TYPE, type PingEvent, pingEventOf } from './ping-item.ts';
import { findWebhook, listAgencyWebhooks } from './webhook-item.ts';

/** What the events function needs: the table, the clock, the log, the notice sender and the delivery queue. */
export interface EventsDeps extends TableHandle {
  readonly clock: Clock;
  readonly log: Logger;
  readonly notices: NoticeSender;
  readonly queue: DeliveryQueue;
}

/** A notice another invocation is sending right now: the record is tried again later. */
class NoticeBusyError extends Error {
  override name = 'NoticeBusyError';
}

/**
 * Publishes one event: one delivery per active endpoint of the agency that takes the event type (once
 * each: the delivery item is created conditionally, and its first attempt enqueued), then the
 * traveller's notice (once: claimed on the event id before SES is called). The webhooks never wait on
 * the notice (docs/API.md §4.6): a notice SES refuses for its address is logged and recorded, not
 * retried; one that failed otherwise (a throttle, the stage's SES set-up) is logged and fails the
 * record, whose retry finds the deliveries already made and sends only the notice.
 */
async function publishEvent(event: BookingEvent, deps: EventsDeps): Promise<void> {
  const now = deps.clock.now();
  const fields = { event_id: event.id, type: event.type, booking_id: event.booking.booking_id };
  const endpoints = (await listAgencyWebhooks(deps, event.agencyId)).filter(
    (endpoint) => endpoint.active && endpoint.events.includes(event.type),
  );
  for (const endpoint of endpoints)
    await deliverOnce(deps, {
      event_id: event.id,
      webhook_id: endpoint.id,
      agency_id: event.agencyId,
      type: event.type,
      occurred_at: event.occurredAt,
      data: event.booking,
      first_at: now,
    });
  deps.log.info('event published', { ...fields, webhooks: endpoints.length });
  // The agency's name only for an event the traveller hears about.
  const notice = NOTICE_TYPES.includes(event.type)
    ? renderNotice(event, await readAgencyName(deps, event.agencyId))
    : undefined;
  if (notice) await sendNotice(notice, event.id, deps, fields);
}

/**
 * One delivery of an event to an endpoint, once (the delivery item is created conditionally), and its
 * first attempt enqueued while it is still due (a redelivered record re-enqueues a message that may
 * have been lost; the attempt's claim drops the duplicate).
 */
async function deliverOnce(deps: EventsDeps, delivery: Parameters<typeof createDelivery>[1]) {
  const due = await createDelivery(deps, delivery);
  if (due)
    await deps.queue.enqueue(
      {
        event_id: delivery.event_id,
        webhook_id: delivery.webhook_id,
        attempt: 1,
        due_at: delivery.first_at,
      },
      delivery.first_at,
    );
}

/**
 * Publishes a `webhook.ping` (ping.ts): one delivery to the endpoint pinged, through the same delivery
 * item, queue, signing and retries as a booking event; nothing when the endpoint is gone since.
 */
async function publishPing(ping: PingEvent, deps: EventsDeps): Promise<void> {
  const endpoint = await findWebhook(deps, ping.agencyId, ping.webhookId);
  const fields = { event_id: ping.id, type: PING_EVENT_TYPE, webhooks: endpoint?.active ? 1 : 0 };
  if (endpoint?.active)
    await deliverOnce(deps, {
      event_id: ping.id,
      webhook_id: endpoint.id,
      agency_id: ping.agencyId,
      type: PING_EVENT_TYPE,
      occurred_at: ping.occurredAt,
      data: { webhook_id: endpoint.id, agency_id: ping.agencyId },
      first_at: deps.clock.now(),
    });
  deps.log.info('event published', fields);
}

/** The traveller's notice, once; a refused address is recorded as done. */
async function sendNotice(notice: Notice, eventId: string, deps: EventsDeps, fields: LogFields) {
  const claim = await claimNotice(deps, eventId, deps.clock.now());
  if (claim === 'busy') throw new NoticeBusyError('notice claimed by another invocation');
  if (claim === 'sent') return;
  try {
    await deps.notices.send(notice);
  } catch (error) {
    if (error instanceof NoticeRefusedError) {
      await markNoticeSent(deps, eventId, deps.clock.now(), { reason: error.reason });
      deps.log.warn('notice refused', { ...fields, error: error.reason });
      return;
    }
    await releaseNotice(deps, eventId);
    // Counted (the NoticesNotSent alarm): SES refusing every notice must page someone, not only retry.
    deps.log.error('notice not sent', { ...fields, error: (error as Error)?.name });
    throw error;
  }
  await markNoticeSent(deps, eventId, deps.clock.now());
  deps.log.info('notice sent', fields);
}

/**
 * The events function's work on one batch of stream records, in order: the sequence number of the
 * first record that failed (Lambda's ReportBatchItemFailures retries from it; the records before it are
 * done), or undefined when all are done. Records that are no event cost nothing.
 */
export async function handleStreamRecords(
  records: readonly (StreamRecord & { dynamodb?: { SequenceNumber?: string } })[],
  deps: EventsDeps,
): Promise<string | undefined> {
  for (const record of records) {
    try {
      const event = bookingEventOf(record);
      const ping = event ? undefined : pingEventOf(record);
      if (event) await publishEvent(event, deps);
      else if (ping) await publishPing(ping, deps);
    } catch (error) {
      deps.log.error('event failed', {
        error: (error as Error)?.name,
        sequence_number: record.dynamodb?.SequenceNumber,
      });
      return record.dynamodb?.SequenceNumber ?? '';
    }
  }
  return undefined;
}
