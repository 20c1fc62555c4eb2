import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/auth/session.ts';

/** functions/auth/session.ts over the tests' own context. */
export const handler = createHandler(testContext);
