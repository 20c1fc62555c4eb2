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
 * One headless Chromium and one `npm start` for the whole browser run, started before any test file
 * (global set-up has no timeout of its own: each start has its deadline). A missing Chromium fails the
 * run with the command that installs it: never a skip.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const [browser, server] = await Promise.all([launchChromium(), startLocalServer()]);
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  project.provide('consoleUrl', server.url);
  project.provide('consoleDataDir', server.dataDir);
  return async () => {
    await Promise.all([browser.close(), server.stop()]);
  };
}

/**
 * Chromium launches in about a second on a quiet machine; playwright's own deadline is 30 s. A launch
 * that has not connected in a minute on a loaded 2-core machine is stuck: playwright kills it, and one
 * fresh launch gets another minute.
 */
const LAUNCH_WITHIN_MS = 60_000;

export async function launchChromium(executablePath = CHROMIUM) {
  const launch = () => chromium.launchServer({ executablePath, headless: true, timeout: LAUNCH_WITHIN_MS });
  try {
    return await launch();
  } catch (error) {
    console.error(`Chromium did not start (${(error as Error).message}); launching a fresh one`);
    return launch();
  }
}
