import { testSupplierContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/refund-quote.ts';

/** functions/bookings/refund-quote.ts over the tests' own context. */
export const handler = createHandler(testSupplierContext);
