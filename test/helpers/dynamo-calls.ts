import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Records the name of every command `client` sends (e.g. `GetItemCommand`) until `stop()`; this is how
 * tests and benchmarks count DynamoDB round trips.
 */
export function recordDynamoCalls(client: DynamoDBDocumentClient, name = 'recordDynamoCalls') {
  const calls: string[] = [];
  client.middlewareStack.add(
    (next, ctx) => async (args) => {
      calls.push(ctx.commandName ?? '');
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { calls, stop: () => client.middlewareStack.remove(name) };
}
