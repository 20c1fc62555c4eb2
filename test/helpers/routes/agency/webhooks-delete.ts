import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/webhooks-delete.ts';

/** functions/agency/webhooks-delete.ts over the tests' own context. */
export const handler = createHandler(testContext);
