import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * One temporary folder per run, removed when the run ends (passed, failed or interrupted): every
 * data directory, synth output and CDK assembly the tests make goes there through TMPDIR, which test
 * workers and the processes they start inherit. Set once, in the process that loads this file first.
 */
if (!process.env.FLIGHT_BOOKING_TEST_TMP) {
  const runDir = mkdtempSync(join(tmpdir(), 'flight-booking-tests-'));
  process.env.FLIGHT_BOOKING_TEST_TMP = runDir;
  process.env.TMPDIR = runDir;
  process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
}

/**
 * Five suites, one run: unit (pure logic), integration (real handlers against one DynamoDB Local
 * started per run, a fresh table per file), infra (the synthesised CDK template), e2e (the dev
 * server as `npm start` runs it, over HTTP) and browser (the console in one headless Chromium against
 * one `npm start` per run, test/browser/global-setup.ts). `npm run test:<suite>` runs one of them.
 */
export default defineConfig({
  test: {
    // Console output (the outbox echoes codes) is shown for failing tests only.
    silent: 'passed-only',
    reporters: ['default', './test/helpers/slowest-tests-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/helpers/dynamodb-global-setup.ts'],
          setupFiles: ['test/helpers/integration-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
