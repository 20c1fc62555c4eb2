import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/agency/webhooks-ping.ts';

/** functions/agency/webhooks-ping.ts over the tests' own context. */
export const handler = createHandler(testContext);
