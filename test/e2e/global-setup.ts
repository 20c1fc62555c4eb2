import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalServer } from '../helpers/local-server.ts';
import { SHARED_SERVER_OUTPUT } from '../helpers/shared-server.ts';

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
 * console build and a DynamoDB Local JVM. What it prints goes to a file in its DATA_DIR, for the test
 * files to read. Files that need their own settings, restarts or the demo agent's code throttle start
 * their own (startLocalServer). Global set-up has no timeout of its own: the start has its deadline
 * (test/helpers/local-server.ts).
 */
export default async function setup(project: TestProject) {
  const server = await startLocalServer();
  const outputFile = join(server.dataDir, SHARED_SERVER_OUTPUT);
  writeFileSync(outputFile, server.output());
  const append = (chunk: Buffer) => appendFileSync(outputFile, chunk);
  server.process.stdout?.on('data', append);
  server.process.stderr?.on('data', append);
  project.provide('e2eServerUrl', server.url);
  project.provide('e2eServerDataDir', server.dataDir);
  return async () => {
    await server.stop();
  };
}
