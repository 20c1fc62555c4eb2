import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/jobs/sweep.ts';

/** functions/jobs/sweep.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
