import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/webhooks-list.ts';

/** functions/agency/webhooks-list.ts over the tests' own context. */
export const handler = createHandler(testContext);
