import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/change.ts';

/** functions/bookings/change.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
