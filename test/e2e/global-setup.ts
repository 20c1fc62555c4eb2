import type { TestProject } from 'vitest/node';
import { takeRunStart } from '../helpers/run-starts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The e2e run's shared `npm start` (default settings, its own DATA_DIR, a free port). */
    e2eServerUrl: string;
    e2eServerDataDir: string;
  }
}

/**
 * One `npm start` with the default settings for every e2e file that needs nothing else
 * (test/helpers/shared-server.ts), started before any test file: each start is a Node process, a
 * console build and a DynamoDB Local JVM. It is the browser project's server too
 * (test/helpers/run-starts.ts): the two projects sign in agents of agencies of their own. Files that
 * need their own settings, restarts or the demo agent's code throttle start their own
 * (startLocalServer). Global set-up has no timeout of its own: the start has its deadline
 * (test/helpers/local-server.ts).
 */
export default async function setup(project: TestProject) {
  const server = await takeRunStart('server', project);
  project.provide('e2eServerUrl', server.value.url);
  project.provide('e2eServerDataDir', server.value.dataDir);
  return server.release;
}
