import { afterAll, beforeAll } from 'vitest';
import { browser, disconnect } from './harness.ts';

/**
 * Runs before each browser test file, which share their processes (vitest.config.ts). The file
 * connects to the run's Chromium before its first test, in a hook with its own generous timeout, so no
 * test's clock runs while the connection is made; when the file ends, the connection closes, and with
 * it every page the file left open (a hold's countdown keeps ticking in an open page).
 */
beforeAll(async () => {
  await browser();
});
afterAll(disconnect);
