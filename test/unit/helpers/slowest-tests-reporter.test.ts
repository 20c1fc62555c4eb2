import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import SlowestTestsReporter from '#test/helpers/slowest-tests-reporter.ts';

/** A finished module of one test that took `duration` ms of its `timeout`, as vitest hands it over. */
function moduleWith(duration: number, timeout: number): TestModule {
  const test = {
    module: { moduleId: `${process.cwd()}/test/browser/x.test.ts` },
    fullName: 'screen > does a thing',
    options: { timeout },
    project: { config: { testTimeout: 60_000 } },
    diagnostic: () => ({ duration }),
  };
  return { children: { allTests: () => [test] } } as unknown as TestModule;
}

function report(modules: TestModule[]): string {
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  new SlowestTestsReporter().onTestRunEnd(modules);
  return printed.join('\n');
}

describe('fn: SlowestTestsReporter', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = exitCode;
  });

  it('names a test that needed more than half its timeout, and leaves the run green by default', () => {
    vi.stubEnv('TEST_HEADROOM', '');
    const printed = report([moduleWith(31_000, 60_000), moduleWith(5_000, 60_000)]);

    expect(printed).toMatch(
      /more than 50 % of their timeout:\n +31\.0 s of 60 s +test\/browser\/x\.test\.ts › screen > does a thing$/,
    );
    expect(process.exitCode).toBe(exitCode);
  });

  it('fails the run for such a test with TEST_HEADROOM=strict', () => {
    vi.stubEnv('TEST_HEADROOM', 'strict');
    const printed = report([moduleWith(31_000, 60_000)]);

    expect(printed).toContain('TEST_HEADROOM=strict: the run fails for them');
    expect(process.exitCode).toBe(1);
  });

  it('leaves the run green with TEST_HEADROOM=strict when every test kept half its timeout', () => {
    vi.stubEnv('TEST_HEADROOM', 'strict');
    const printed = report([moduleWith(29_000, 60_000)]);

    expect(printed).not.toContain('more than 50 %');
    expect(process.exitCode).toBe(exitCode);
  });
});
