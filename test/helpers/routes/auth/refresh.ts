import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/auth/refresh.ts';

/** functions/auth/refresh.ts over the tests' own context. */
export const handler = createHandler(testContext);
