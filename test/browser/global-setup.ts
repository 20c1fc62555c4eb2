import type { TestProject } from 'vitest/node';
import { takeRunStart } from '../helpers/run-starts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one Chromium of the run: every test file connects to it and opens its own contexts. */
    browserWsEndpoint: string;
    /** The run's shared `npm start` (its own DATA_DIR, a free port), the e2e project's too. */
    consoleUrl: string;
    consoleDataDir: string;
  }
}

/**
 * One headless Chromium and one `npm start` for the whole browser run, started before any test file
 * (test/helpers/run-starts.ts: the server is the e2e project's too; global set-up has no timeout of its
 * own: each start has its deadline).
 */
export default async function setup(project: TestProject) {
  const [browser, server] = await Promise.all([
    takeRunStart('chromium', project),
    takeRunStart('server', project),
  ]);
  project.provide('browserWsEndpoint', browser.value.wsEndpoint());
  project.provide('consoleUrl', server.value.url);
  project.provide('consoleDataDir', server.value.dataDir);
  return async () => {
    await Promise.all([browser.release(), server.release()]);
  };
}
