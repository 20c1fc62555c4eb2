import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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
    expect(calls.slice(-2)).toEqual(['npm ci --no-audit --no-fund --strict-allow-scripts', 'npm test']);
  });

  it('installs nothing for the browser when it is there', async () => {
    const calls = await ciRun('/bin/sh');

    expect(calls.filter((call) => call.includes('chromium'))).toEqual([]);
  });
});

describe('npm test', () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

  it('ends by running the unit project shuffled, files and tests, with two fixed seeds', () => {
    const runs = (scripts['test:shuffled'] ?? '').split(' && ');
    const seeds = runs.map((run) => /--sequence\.seed=(\d+)\b/.exec(run)?.[1]);

    expect(scripts.test).toMatch(/ && npm run test:shuffled$/);
    expect(runs).toHaveLength(2);
    for (const run of runs)
      expect(run).toMatch(/^vitest run --project unit --sequence\.shuffle --sequence\.seed=\d+$/);
    expect(new Set(seeds).size).toBe(2);
  });
});
