import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/get.ts';

/** functions/bookings/get.ts over the tests' own context. */
export const handler = createHandler(testContext);
