import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import { AWS_CLIENT_OPTIONS } from '../aws-client-options.ts';

/** The one table and the client to reach it: what every repository function takes. */
export interface TableHandle {
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
}

/**
 * The document client every repository uses. Retries are bounded (3 attempts) and every call has a
 * deadline, so a sick dependency turns into a 503 well inside the function's timeout.
 *
 * @param endpoint DynamoDB Local's URL when running locally; unset in AWS.
 */
export function createDocumentClient(endpoint?: string, region = 'us-east-1'): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    ...AWS_CLIENT_OPTIONS,
    ...(endpoint && {
      endpoint,
      region,
      // DynamoDB Local accepts any credentials; fixed ones keep a developer's real ones out of play.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * The per-item reason codes of a cancelled transaction, in the order of its items (`None` for an item
 * that was fine); undefined for any other error.
 */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { name?: unknown; CancellationReasons?: { Code?: string }[] };
  if (e.name !== 'TransactionCanceledException') return undefined;
  return (e.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}

/** Whether `error` is DynamoDB's answer to a failed condition (an expected outcome, not a fault). */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The item as it stood when a write's condition failed (`ReturnValuesOnConditionCheckFailure:
 * 'ALL_OLD'`), plain; undefined when there was none. lib-dynamodb leaves this one marshalled.
 */
export function itemAtFailedCondition(error: unknown): Record<string, NativeAttributeValue> | undefined {
  const item = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return item ? unmarshall(item) : undefined;
}
