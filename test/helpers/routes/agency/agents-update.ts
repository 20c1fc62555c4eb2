import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/agents-update.ts';

/** functions/agency/agents-update.ts over the tests' own context. */
export const handler = createHandler(testContext);
