import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { CONSOLE_SCREENS } from './shared/console/screens.ts';
import { UnitShuffleSequencer } from './test/helpers/unit-shuffle-sequencer.ts';

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
  /**
   * Node's compile cache, for the run: every Node process after the first that loads a module (the
   * agents CLI about fifty times a run, each `npm start`, `npm run demo`, the e2e workers) takes its
   * compiled code from the folder instead of compiling it again. Inside the run's folder, so each run
   * starts empty and leaves nothing. Measured per project (2026-11-28, back to back): the agents CLI
   * 0.31 → 0.15 s of CPU a run, e2e 71 → 64 s of CPU, integration 96 → 89 s, infra and browser unchanged.
   */
  process.env.NODE_COMPILE_CACHE = join(runDir, 'node-compile-cache');
  /**
   * Every DynamoDB Local a test starts (the integration run's, and one per `npm start`) compiles with
   * the JVM's quick compiler only and collects garbage on one thread: a test run's JVMs live for
   * seconds to minutes, too short for the optimising compiler to earn back its own CPU. Measured: a
   * start costs 1.1 s of CPU instead of 2.7 s, and 6,000 requests 5 s instead of 9 s. Nothing but
   * speed changes; `npm start` outside the tests keeps the JVM's defaults.
   */
  process.env.JAVA_TOOL_OPTIONS = [
    process.env.JAVA_TOOL_OPTIONS,
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Five suites, one run: unit (pure logic), integration (real handlers against a DynamoDB Local per
 * test worker started once per run, a fresh table per file), infra (the synthesised CDK template),
 * e2e (the dev server as `npm start` runs it, over HTTP) and browser (the console in one headless
 * Chromium against one `npm start` per run, test/browser/global-setup.ts). `npm run test:<suite>`
 * runs one of them.
 */
export default defineConfig({
  test: {
    // Console output (the outbox echoes codes) is shown for failing tests only.
    silent: 'passed-only',
    reporters: ['default', './test/helpers/slowest-tests-reporter.ts'],
    // Three test files at a time, whatever the cores (vitest's default is one fewer than the cores:
    // one on a 2-core machine). Most e2e, browser and integration time is spent waiting on another
    // process (DynamoDB Local, npm start, Chromium): with three, a 2-core machine is about 1.8 cores
    // busy through the run (README, Test).
    maxWorkers: 3,
    // The unit project runs shuffled, files and tests, under this seed (`npm run test:shuffled` then
    // runs it once more under another): no test may count on running after another. The other
    // projects keep vitest's order (test/helpers/unit-shuffle-sequencer.ts).
    sequence: { seed: 39, sequencer: UnitShuffleSequencer },
    projects: [
      {
        // The console's screens, as its build defines them for the router (infra/web/build.ts).
        define: { CONSOLE_SCREENS: JSON.stringify(CONSOLE_SCREENS) },
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { shuffle: { tests: true } },
          // The files share their processes: pure logic with nothing to leak between files, and each
          // file's imports load once per process instead of once per file (17 s of CPU became 8 s).
          isolate: false,
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/helpers/dynamodb-global-setup.ts'],
          setupFiles: ['test/helpers/integration-setup.ts'],
          // The files share their processes, each starting from a clean slate that its setup file
          // makes (every module of the repository evaluated anew, the worker's own environment):
          // packages under node_modules load once per process instead of once per file. Measured
          // back to back, the project took 123 s of CPU and 72 s isolated, 98 s and 61 s so.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Two processes, after the other projects (vitest runs a project with a worker count of its
          // own in a group of its own): synth.test in one, mostly waiting on `cdk synth`'s processes,
          // every other file in the other, so aws-cdk-lib loads and each stage is built twice a run,
          // not three times. Measured back to back: vitest 167.2 and 159.0 s (300 and 285 s of CPU)
          // against 172.7 s (317 s) with the infra files among the others' three; the project alone
          // 29 s and 42 s of CPU in one process, 37 s and 70 s in three.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // The files share their processes: aws-cdk-lib loads once per process, not once per file,
          // and each stage configuration is built once per process (test/helpers/stage-files.ts).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // One `npm start` with the default settings, shared by the files that need nothing else
          // (test/helpers/shared-server.ts); the others start their own in beforeAll.
          globalSetup: ['test/e2e/global-setup.ts'],
          // Sized by a loaded run (two busy loops beside npm start): the agents CLI's six runs in
          // local-runtime took 25 s at load 20-30, 8-10 s quiet; 60 s keeps them under half at load 4.
          testTimeout: 60_000,
          // Its files start `npm start` in beforeAll: more than the 150 s a start may take
          // (test/helpers/local-server.ts), so a start that never comes fails with its own output.
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'browser',
          // Three tests at a time in a describe.concurrent (vitest's default is five): each test's clock
          // also runs while its siblings' pages use the CPU. Measured at a load of 15-25 on 2 cores,
          // the slowest test took 34-38 s of its 60 s at five, 26 s at three and at two (where the
          // project took longer).
          maxConcurrency: 3,
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          setupFiles: ['test/browser/file-setup.ts'],
          // The files share their processes: playwright-core and axe-core load once per process, not
          // once per file (36-38 s of CPU became 32-34 s). Each file still opens its own pages and
          // contexts, closed with its connection when it ends (file-setup.ts).
          isolate: false,
          testTimeout: 60_000,
          // expect.poll waits as long as the harness's locators (test/browser/harness.ts, WAIT_MS): a page
          // state that has not come in 20 s will not come. vitest's default of 1 s failed the workspace
          // walk's focus check in the loaded check, where each read of the page took its share of it.
          expect: { poll: { timeout: 20_000 } },
          // The servers a file needs beyond the run's (short holds, Duffel) start in its beforeAll, and
          // each file connects to Chromium in one (file-setup.ts): never on a test's clock. More than
          // the 150 s a start may take (test/helpers/local-server.ts).
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
