import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/auth/verify-otp.ts';

/** functions/auth/verify-otp.ts over the tests' own context. */
export const handler = createHandler(testContext);
