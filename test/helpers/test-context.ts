import { type AppContext, context } from '#shared/context.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { type SupplierContext, withSupplier } from './supplier-context.ts';

/**
 * The context the tests' handlers run on (see `routes/`): the process's configuration, keys, table
 * and logger, with a clock and a DynamoDB client of the tests' own. Tests freeze that clock and push
 * faults onto that client's middleware; the process-wide context the functions use is never patched.
 */
export const testContext: AppContext = {
  ...context,
  clock: { now: () => Date.now() },
  db: createDocumentClient(process.env.DYNAMODB_ENDPOINT, context.config.AWS_REGION),
};

/** The tests' context with the built-in network as the supplier, on the tests' own client and clock. */
export const testSupplierContext: SupplierContext = await withSupplier(testContext);
