import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/confirm.ts';

/** functions/bookings/confirm.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
