import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/flights/services.ts';

/** functions/flights/services.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
