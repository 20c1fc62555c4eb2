import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/change-search.ts';

/** functions/bookings/change-search.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
