import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/webhooks-create.ts';

/** functions/agency/webhooks-create.ts over the tests' own context. */
export const handler = createHandler(testContext);
