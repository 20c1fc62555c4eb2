import { createCodeSender } from '#shared/notify/create-code-sender.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../../functions/auth/send-otp.ts';

/** functions/auth/send-otp.ts over the tests' own context (the sender the environment selects, read at import). */
export const handler = createHandler(testContext, await createCodeSender());
