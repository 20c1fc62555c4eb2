import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/list.ts';

/** functions/bookings/list.ts over the tests' own context. */
export const handler = createHandler(testContext);
