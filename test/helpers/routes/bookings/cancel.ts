import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/cancel.ts';

/** functions/bookings/cancel.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
