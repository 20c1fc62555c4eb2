import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';

import { withInvocationFields } from '../invocation.ts';
import { type DeliveryDeps, handleDeliveryMessage } from './deliver.ts';
import { DeliveryMessage } from './delivery-item.ts';
import { type EventsDeps, handleStreamRecords } from './publish.ts';

/** Lambda's answer to a batch with ReportBatchItemFailures: the records (or messages) to hand over again. */
interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * The events function: a batch of the table's stream records in shard order; the first that fails is
 * reported (Lambda retries from it, bisects, and after its retry limit sends it to the dead-letter queue).
 */
export function streamHandler(deps: EventsDeps) {
  return withInvocationFields(async (event: DynamoDBStreamEvent): Promise<BatchResponse> => {
    const failed = await handleStreamRecords(event.Records, deps);
    return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
  });
}

/**
 * The delivery function: a batch of queue messages, each attempt made side by side (each has its own
 * 10-second deadline); a message that failed or is held by a live claim is reported, and SQS hands it
 * over again after its visibility timeout (after five receives, to the delivery dead-letter queue).
 */
export function deliveryHandler(deps: DeliveryDeps) {
  return withInvocationFields(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.all(
      event.Records.map(async (record) => {
        let message: DeliveryMessage;
        try {
          message = DeliveryMessage.parse(JSON.parse(record.body));
        } catch {
          // Not a message this service wrote: retrying cannot help.
          deps.log.error('delivery message malformed', { message_id: record.messageId });
          return undefined;
        }
        try {
          return (await handleDeliveryMessage(message, deps)) === 'done' ? undefined : record.messageId;
        } catch (error) {
          deps.log.error('delivery failed', { error: (error as Error)?.name, event_id: message.event_id });
          return record.messageId;
        }
      }),
    );
    return {
      batchItemFailures: results
        .filter((id) => id !== undefined)
        .map((itemIdentifier) => ({ itemIdentifier })),
    };
  });
}
