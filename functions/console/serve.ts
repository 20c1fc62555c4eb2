import { join } from 'node:path';
import { consoleHandler } from '#shared/console/lambda.ts';
import { readConsoleFiles } from '#shared/console/serve.ts';

/** The agent console: the build the stack bundles beside this file (`console/`), read once per cold start. */
export const handler = consoleHandler(readConsoleFiles(join(import.meta.dirname, 'console')));
