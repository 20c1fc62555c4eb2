import { describe, expect, it } from 'vitest';
import { projectsInRun, startsFor } from '#test/helpers/run-starts.ts';

/** A run of `paths` over projects that each own the files under their folder. */
const run = (paths: string[]) =>
  ({
    vitest: {
      state: { getPaths: () => paths },
      projects: ['unit', 'integration', 'infra', 'e2e', 'browser'].map((name) => ({
        name,
        matchesTestGlob: (path: string) => path.startsWith(`/repo/test/${name}/`),
      })),
    },
  }) as never;

describe('fn: projectsInRun', () => {
  it('names only the projects with files in the run, as a file filter leaves them', () => {
    expect(projectsInRun(run(['/repo/test/e2e/docs.test.ts']))).toEqual(new Set(['e2e']));
    expect(
      projectsInRun(run(['/repo/test/browser/docs.test.ts', '/repo/test/integration/faults.test.ts'])),
    ).toEqual(new Set(['browser', 'integration']));
  });
});

describe('fn: startsFor', () => {
  it('begins Chromium for the browser alone, the shared server for e2e or browser, DynamoDB Locals for integration', () => {
    expect(startsFor(new Set(['e2e']))).toEqual(['server']);
    expect(startsFor(new Set(['browser']))).toEqual(['chromium', 'server']);
    expect(startsFor(new Set(['integration', 'unit']))).toEqual(['dynamodb']);
    expect(startsFor(new Set(['unit', 'infra']))).toEqual([]);
  });
});
