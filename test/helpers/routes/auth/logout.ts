import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/auth/logout.ts';

/** functions/auth/logout.ts over the tests' own context. */
export const handler = createHandler(testContext);
