import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/agents-list.ts';

/** functions/agency/agents-list.ts over the tests' own context. */
export const handler = createHandler(testContext);
