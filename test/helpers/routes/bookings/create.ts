import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/create.ts';

/** functions/bookings/create.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
