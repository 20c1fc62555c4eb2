import { afterAll } from 'vitest';
import { disconnect } from './harness.ts';

/**
 * Runs before each browser test file, which share their processes (vitest.config.ts): when the file
 * ends, its connection to the run's Chromium closes, and with it every page it left open (a hold's
 * countdown keeps ticking in an open page).
 */
afterAll(disconnect);
