import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/bookings/itinerary.ts';

/** functions/bookings/itinerary.ts over the tests' own context. */
export const handler = createHandler(testContext);
