import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventFunctions, routes } from '#shared/routes.ts';

const run = promisify(execFile);

interface LambdaResource {
  Type: string;
  Metadata: Record<string, string>;
}

/** `npm run synth` into `out`, offline and without credentials; the dev stage's template. */
async function synthInto(out: string) {
  const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '' };
  await run('node_modules/.bin/cdk', ['synth', '--quiet', '--no-notices', '-o', out], {
    env,
    timeout: 110_000,
  });
  const template = JSON.parse(readFileSync(join(out, 'FlightBooking-dev.template.json'), 'utf8'));
  const functions = Object.values(template.Resources as Record<string, LambdaResource>).filter(
    (r) => r.Type === 'AWS::Lambda::Function',
  );
  return { out, template, functions };
}

/**
 * Two full synths per run, shared by the tests below: one into a shallow folder, one into a folder
 * three levels deeper (the asset hashes must not depend on where the output goes).
 */
let shallow: Awaited<ReturnType<typeof synthInto>>;
let deep: Awaited<ReturnType<typeof synthInto>>;
beforeAll(async () => {
  [shallow, deep] = await Promise.all([
    synthInto(mkdtempSync(join(tmpdir(), 'synth-'))),
    synthInto(join(mkdtempSync(join(tmpdir(), 'synth-')), 'one', 'level', 'deeper')),
  ]);
});

describe('infra: npm run synth', () => {
  it('synthesises offline without credentials, bundling every function as an ESM Node 24 bundle, cdk-nag included', () => {
    const { out, template, functions } = shallow;

    // and the OpenAPI document, the console, the sweep
    expect(functions).toHaveLength(routes.length + 3 + eventFunctions.length);
    for (const fn of functions) {
      const asset = join(out, fn.Metadata['aws:asset:path'] ?? '');
      // No source map ships (infra/bundling.ts); the console's function carries the console's build.
      const carried = existsSync(join(asset, 'console')) ? ['console'] : [];
      expect(readdirSync(asset).sort()).toEqual([...carried, 'index.mjs']);
      const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');
      expect(
        bundle.startsWith(
          "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        ),
      ).toBe(true);
      expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
      // An ES import of node:http loads undici at every cold start (infra/bundling.ts, alias).
      expect(/from\s*["'](node:)?http["']/.test(bundle)).toBe(false);
      // The console's function is the page server alone (about 5 KB); every other carries the SDK.
      expect(statSync(join(asset, 'index.mjs')).size).toBeGreaterThan(carried.length > 0 ? 2_000 : 10_000);
    }
    expect(JSON.stringify(template)).not.toContain('enable-source-maps');
  });

  it('gives every bundle the same asset hash whatever folder the synth writes to', () => {
    const assets = ({ functions }: typeof shallow) =>
      functions.map((r) => r.Metadata['aws:asset:path']).sort();

    expect(assets(deep)).toEqual(assets(shallow));
    expect(new Set(assets(shallow)).size).toBe(routes.length + 3 + eventFunctions.length);
  });

  it('bundles the console’s build beside its function: the page and the hashed assets it names', () => {
    const { out, functions } = shallow;
    const withConsole = functions
      .map((fn) => join(out, fn.Metadata['aws:asset:path'] ?? '', 'console'))
      .filter((dir) => existsSync(dir));

    expect(withConsole).toHaveLength(1);
    const [dir = ''] = withConsole;
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    const assets = readdirSync(join(dir, 'assets'));
    expect(assets.some((name) => /^[\w-]+-[A-Z0-9]{8}\.js$/.test(name))).toBe(true);
    for (const name of assets) expect(page).toContain(`/assets/${name}`);
  });
});
