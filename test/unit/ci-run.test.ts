import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';
import { UnitShuffleSequencer } from '../helpers/unit-shuffle-sequencer.ts';

const run = promisify(execFile);

/**
 * `.ci/run` on a machine whose `apt-get`, `java`, `curl` and `npm` are stand-ins that only record
 * their arguments: what it would install, and that it goes on to the README's commands.
 */
async function ciRun(chromium: string): Promise<string[]> {
  const bin = mkdtempSync(join(tmpdir(), 'ci-bin-'));
  const log = join(bin, 'calls.log');
  for (const tool of ['apt-get', 'java', 'curl', 'npm']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${log}"\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  await run('bash', ['.ci/run'], { env: { PATH: `${bin}:/usr/bin:/bin`, CHROMIUM: chromium } });
  return readFileSync(log, 'utf8').trim().split('\n');
}

describe('.ci/run', () => {
  it('installs Debian’s chromium, without recommends, when the browser is missing', async () => {
    const calls = await ciRun('/nonexistent/chromium');

    expect(calls).toContain('apt-get install -y -q --no-install-recommends chromium');
    expect(calls.slice(-3)).toEqual([
      'npm ci --no-audit --no-fund --strict-allow-scripts',
      'npm test',
      'npm run test:shuffled',
    ]);
  });

  it('installs nothing for the browser when it is there', async () => {
    const calls = await ciRun('/bin/sh');

    expect(calls.filter((call) => call.includes('chromium'))).toEqual([]);
  });
});

describe('npm test', () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

  it('runs the unit project shuffled, files and tests, under seed 39; test:shuffled under another', () => {
    expect(scripts.test).toMatch(/^npm run typecheck && npm run lint && vitest run$/);
    expect(scripts['test:shuffled']).toMatch(
      /^vitest run --project unit --sequence\.shuffle --sequence\.seed=(\d+)$/,
    );
    expect(scripts['test:shuffled']).not.toMatch(/seed=39$/);

    const unit = config.test?.projects?.find(
      (project) => typeof project === 'object' && 'test' in project && project.test?.name === 'unit',
    );
    expect(config.test?.sequence).toMatchObject({ seed: 39, sequencer: UnitShuffleSequencer });
    expect(unit).toMatchObject({ test: { sequence: { shuffle: { tests: true } } } });
  });
});

describe('UnitShuffleSequencer', () => {
  const files = readdirSync('test/unit', { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => resolve('test/unit', name));
  const spec = (project: string, moduleId: string) =>
    ({
      project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: false } },
      moduleId,
    }) as never;
  const order = async (
    seed: number,
    specs: never[],
    recorded: (spec: never) => unknown = () => undefined,
  ) => {
    const ctx = {
      cache: { getTestSpecificationResult: recorded },
      config: { root: process.cwd(), sequence: { seed } },
    };
    const sorted = await new UnitShuffleSequencer(ctx as never).sort(specs);
    return sorted.map(
      (one: { project: { name: string }; moduleId: string }) => `${one.project.name} ${one.moduleId}`,
    );
  };
  const specs = () => [
    spec('browser', resolve('test/browser/booking.test.ts')),
    ...files.map((file) => spec('unit', file)),
    spec('integration', resolve('test/integration/bookings/create.test.ts')),
  ];

  it('orders the unit files by the seed alone, the same each time, another order for another seed', async () => {
    const first = await order(39, specs());
    expect(await order(39, specs().reverse())).toEqual(first);
    expect(await order(2026, specs())).not.toEqual(first);
    expect(first.filter((name) => name.startsWith('unit')).sort()).toEqual(
      files.map((file) => `unit ${file}`).sort(),
    );
    expect(first.filter((name) => name.startsWith('unit'))).not.toEqual(
      files.map((file) => `unit ${file}`).sort(),
    );
  });

  it('keeps the other projects in vitest’s order', async () => {
    const sorted = await order(39, specs());
    expect(sorted[0]).toBe(`browser ${resolve('test/browser/booking.test.ts')}`);
    expect(sorted.indexOf(`integration ${resolve('test/integration/bookings/create.test.ts')}`)).toBe(1);
  });

  it('starts a first run’s long files first, as a recorded run would, not the largest', async () => {
    // send-otp-timing is a small file of long waits (first-run-durations.ts); change.test a large quick one.
    const timing = resolve('test/integration/auth/send-otp-timing.test.ts');
    const large = resolve('test/integration/bookings/change.test.ts');
    const two = () => [spec('integration', large), spec('integration', timing)];
    expect(statSync(large).size).toBeGreaterThan(statSync(timing).size);

    expect(await order(39, two())).toEqual([`integration ${timing}`, `integration ${large}`]);
    // With vitest's own records (a later run), vitest's order stands: here the larger file first.
    expect(await order(39, two(), () => ({ failed: false, duration: 1 }))).toEqual([
      `integration ${large}`,
      `integration ${timing}`,
    ]);
  });
});
