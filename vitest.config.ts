import { defineConfig } from 'vitest/config';

/**
 * Four suites, one run: unit (pure logic), integration (real handlers against one DynamoDB Local
 * started per run, a fresh table per file), infra (the synthesised CDK template) and e2e (the dev
 * server as `npm start` runs it, over HTTP).
 */
export default defineConfig({
  test: {
    // Console output (the outbox echoes codes) is shown for failing tests only.
    silent: 'passed-only',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
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
    ],
  },
});
