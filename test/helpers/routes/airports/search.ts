import { catalogSupplier } from '#shared/supply/context.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/airports/search.ts';

/** functions/airports/search.ts over the tests' own context, selling from the built-in network. */
export const handler = createHandler({
  ...testContext,
  catalog: () => catalogSupplier(testContext, 'network'),
});

/** The same over every IATA airport, as a Duffel stage sells. */
export const duffelHandler = createHandler({
  ...testContext,
  catalog: () => catalogSupplier(testContext, 'duffel'),
});
