import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/flights/search.ts';

/** functions/flights/search.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
