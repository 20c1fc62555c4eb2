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

/**
 * Records the IAM table actions each labelled step of a test performs through `client`: a transaction's
 * items as `PutItem`, `UpdateItem`, `DeleteItem`, `ConditionCheckItem`; a Query of the table itself
 * (no IndexName) as `QueryTable`, since it is granted on the table alone (shared/function-spec.ts).
 * `as(label, action)` labels what `action` sends; the permission tests compare `used` with the grants.
 */
export function recordTableActions(client: DynamoDBDocumentClient, name = 'recordTableActions') {
  const used = new Map<string, Set<string>>();
  let current = '';
  client.middlewareStack.add(
    (next, ctx) => async (args) => {
      const actions = used.get(current) ?? new Set<string>();
      const command = (ctx.commandName ?? '').replace(/Command$/, '');
      if (command === 'TransactWriteItems') {
        for (const item of (args.input as { TransactItems: Record<string, unknown>[] }).TransactItems)
          for (const kind of Object.keys(item)) actions.add(`${kind}Item`);
      } else if (command === 'Query' && !(args.input as { IndexName?: string }).IndexName) {
        actions.add('QueryTable');
      } else {
        actions.add(command);
      }
      used.set(current, actions);
      return next(args);
    },
    { step: 'initialize', name },
  );
  const as = async <T>(label: string, action: () => Promise<T>): Promise<T> => {
    current = label;
    try {
      return await action();
    } finally {
      current = '';
    }
  };
  return { used, as, stop: () => client.middlewareStack.remove(name) };
}
