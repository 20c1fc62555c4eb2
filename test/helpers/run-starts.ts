import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import { CHROMIUM, CHROMIUM_MISSING } from './console-agents.ts';
import { type LocalServer, startLocalServer } from './local-server.ts';
import { SHARED_SERVER_OUTPUT } from './shared-server.ts';

/**
 * The run's slow start-ups, each begun once per run and shared by the global setups that need it:
 * Chromium (browser), one `npm start` with the default settings (browser and e2e), and one in-memory
 * DynamoDB Local per test worker (integration). vitest runs its projects' global setups one after
 * another; the first to run begins every start the run's projects need, so they go side by side
 * instead of one after another, and each setup then waits for its own (`takeRunStart`). What was
 * started is stopped when the last setup that took it tears down.
 */
const STARTS = {
  chromium: {
    projects: ['browser'],
    start: () => {
      // A missing Chromium fails the run with the command that installs it: never a skip.
      if (!existsSync(CHROMIUM)) return Promise.reject(new Error(CHROMIUM_MISSING));
      return launchChromium();
    },
    stop: (browser: Awaited<ReturnType<typeof launchChromium>>) => browser.close(),
  },
  server: {
    projects: ['browser', 'e2e'],
    start: startRunServer,
    stop: (server: LocalServer) => server.stop(),
  },
  dynamodb: {
    projects: ['integration'],
    start: (project: TestProject) => startDynamoDbLocals(project),
    stop: (dynamos: Awaited<ReturnType<typeof startDynamoDbLocals>>) =>
      Promise.all(dynamos.map((dynamo) => dynamo.stop())),
  },
};
type Starts = typeof STARTS;
type Started<K extends keyof Starts> = Awaited<ReturnType<Starts[K]['start']>>;

interface Begun {
  readonly started: Promise<unknown>;
  users: number;
}
/** On globalThis: each project's global setup evaluates this module afresh in vitest's main process. */
const shared = globalThis as { runStarts?: Map<string, Begun> };
shared.runStarts ??= new Map();
const begun = shared.runStarts;

function begin(name: keyof Starts, project: TestProject): Begun {
  let entry = begun.get(name);
  if (!entry) {
    const started = (STARTS[name].start as (project: TestProject) => Promise<unknown>)(project);
    // Its setup awaits it and fails the run with the reason; until then the rejection is expected.
    started.catch(() => undefined);
    entry = { started, users: 0 };
    begun.set(name, entry);
  }
  return entry;
}

/** Begins every start that a project with files in this run needs and has not begun. */
function beginRunStarts(project: TestProject): void {
  for (const name of startsFor(projectsInRun(project))) begin(name, project);
}

/**
 * The projects with test files in this run: `--project` and a file filter both narrow it (vitest
 * collects the run's files before any global setup), and a project without files runs no setup, so
 * a start begun for it would never be taken.
 */
export function projectsInRun(project: Pick<TestProject, 'vitest'>): Set<string> {
  const paths = project.vitest.state.getPaths();
  return new Set(
    project.vitest.projects
      .filter((each) => paths.some((path) => each.matchesTestGlob(path)))
      .map((each) => each.name),
  );
}

/** The starts the given projects need. */
export function startsFor(projects: Set<string>): (keyof Starts)[] {
  return (Object.keys(STARTS) as (keyof Starts)[]).filter((name) =>
    STARTS[name].projects.some((needs) => projects.has(needs)),
  );
}

/** `name`'s start (begun now with the run's others if none has), and its release for the teardown. */
export async function takeRunStart<K extends keyof Starts>(name: K, project: TestProject) {
  beginRunStarts(project);
  const entry = begin(name, project);
  entry.users += 1;
  const value = (await entry.started) as Started<K>;
  const release = async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    begun.delete(name);
    await (STARTS[name].stop as (value: Started<K>) => Promise<unknown>)(value);
  };
  return { value, release };
}

/**
 * One `npm start` with the default settings (its own DATA_DIR, a free port). What it prints goes to
 * a file in its DATA_DIR, for the test files to read (test/helpers/shared-server.ts).
 */
async function startRunServer(): Promise<LocalServer> {
  const server = await startLocalServer();
  const outputFile = join(server.dataDir, SHARED_SERVER_OUTPUT);
  writeFileSync(outputFile, server.output());
  const append = (chunk: Buffer) => appendFileSync(outputFile, chunk);
  server.process.stdout?.on('data', append);
  server.process.stderr?.on('data', append);
  return server;
}

/**
 * One in-memory DynamoDB Local per test worker for the whole integration run; each test file makes
 * its own table in its worker's. DynamoDB Local answers one request at a time per database, so two
 * workers sharing one JVM wait on each other: measured at two workers, the integration run took 82 s
 * with one JVM and 68 s with one per worker.
 */
function startDynamoDbLocals(project: TestProject) {
  const workers = Math.max(1, project.vitest.config.maxWorkers);
  return Promise.all(Array.from({ length: workers }, () => startDynamoDbLocal()));
}

/**
 * Chromium launches in about a second on a quiet machine; playwright's own deadline is 30 s. A launch
 * that has not connected in a minute on a loaded 2-core machine is stuck: playwright kills it, and one
 * fresh launch gets another minute.
 */
const LAUNCH_WITHIN_MS = 60_000;

/**
 * playwright-core's own `--disable-features` list, as 1.65.1 (pinned exactly) passes it. Chromium keeps
 * only the last `--disable-features` of a command line, so a list of ours must carry playwright's too,
 * and playwright's own switch is left out (`ignoreDefaultArgs` names it exactly). When a new playwright
 * changes its list, its switch is no longer left out and the browser project's launch test fails.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Every context a test opens is a browser window, and Chromium 156 preloads each window's omnibox
 * popup: a WebUI renderer with two pages of the browser's own, about 0.45 s of CPU per context, for an
 * address bar no test sees. Measured on the browser project: Chromium 91 → 64 s of CPU, the project
 * 139 → 108 s (71 → 57 s). The pages under test are unchanged.
 */
export const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export async function launchChromium(executablePath = CHROMIUM) {
  const features = (names: string[]) => `--disable-features=${names.join(',')}`;
  const launch = () =>
    chromium.launchServer({
      executablePath,
      headless: true,
      timeout: LAUNCH_WITHIN_MS,
      ignoreDefaultArgs: [features(PLAYWRIGHT_DISABLED_FEATURES)],
      args: [features([...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI])],
    });
  try {
    return await launch();
  } catch (error) {
    console.error(`Chromium did not start (${(error as Error).message}); launching a fresh one`);
    return launch();
  }
}
