import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/note.ts';

/** functions/bookings/note.ts over the tests' own context. */
export const handler = createHandler(testContext);
