import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/agents-create.ts';

/** functions/agency/agents-create.ts over the tests' own context. */
export const handler = createHandler(testContext);
