import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * npm 12 skips every dependency's install script that package.json's `allowScripts` does not name,
 * and `.ci/run` installs with `--strict-allow-scripts` so an unreviewed one fails the install today.
 * The pinned Node 24 comes from the `node` package's preinstall: without it every script would run
 * on the machine's own Node.
 */
describe('install: reviewed install scripts only', () => {
  it('names every dependency that has an install script: node and esbuild allowed, the telemetry one denied', async () => {
    // Prepare
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };

    // Act
    const { stdout } = await run('npm', ['install-scripts', 'ls'], {
      env: { ...process.env, NO_COLOR: '1' },
    });

    // Assess
    expect(stdout).toContain('No packages with unreviewed install scripts');
    expect(pkg.allowScripts).toEqual({ node: true, esbuild: true, '@scarf/scarf': false });
  });

  it('the allowed scripts did their work: the scripts run on Node 24 and esbuild transforms', async () => {
    // Act
    const { stdout: version } = await run('node', ['--version']);
    const esbuild = await import('esbuild');
    const out = await esbuild.transform('const a: number = 1', { loader: 'ts' });

    // Assess
    expect(version.trim()).toMatch(/^v24\./);
    expect(out.code).toContain('const a = 1');
  });

  it('CI installs with the strict setting, so an unreviewed script fails the install loudly', async () => {
    const ci = await readFile('.ci/run', 'utf8');
    expect(ci).toMatch(/npm ci\b[^\n]*--strict-allow-scripts/);
  });
});
