import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_MISSING } from '../helpers/console-agents.ts';
import { startLocalServer } from '../helpers/local-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one Chromium of the run: every test file connects to it and opens its own contexts. */
    browserWsEndpoint: string;
    /** The run's shared `npm start` (its own DATA_DIR, a free port). */
    consoleUrl: string;
    consoleDataDir: string;
  }
}

/**
 * One headless Chromium and one `npm start` for the whole browser run. A missing Chromium fails the
 * run with the command that installs it: never a skip.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const [browser, server] = await Promise.all([
    chromium.launchServer({ executablePath: CHROMIUM, headless: true }),
    startLocalServer(),
  ]);
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  project.provide('consoleUrl', server.url);
  project.provide('consoleDataDir', server.dataDir);
  return async () => {
    await Promise.all([browser.close(), server.stop()]);
  };
}
