import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventFunctions, routes } from '#shared/routes.ts';
import { testApp } from '#test/helpers/cdk-app.ts';
import { buildApp } from '../../infra/app.ts';
import { folderHash } from '../../infra/bundling.ts';
import { buildConsole } from '../../infra/web/build.ts';

const run = promisify(execFile);

interface LambdaResource {
  Type: string;
  Metadata: Record<string, string>;
  Properties: { Code: { S3Key: unknown } };
}

const offline = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '' };

/** The dev stage's template in `out`, and its functions. */
function synthesised(out: string) {
  const template = JSON.parse(readFileSync(join(out, 'FlightBooking-dev.template.json'), 'utf8'));
  const functions = Object.values(template.Resources as Record<string, LambdaResource>).filter(
    (r) => r.Type === 'AWS::Lambda::Function',
  );
  return { out, template, functions };
}

/** `npm run synth` into `out`, offline and without credentials, bundling every function. */
async function synthInto(out: string) {
  await run('node_modules/.bin/cdk', ['synth', '--quiet', '--no-notices', '-o', out], {
    env: offline,
    timeout: 110_000,
  });
  return synthesised(out);
}

/**
 * The app as `cdk synth` builds it (infra/app.ts's `buildApp`, cdk.json's context, asset metadata on,
 * the console built where the app builds it: `cdk.out/console/<hash of its files>`), but with
 * bundling skipped, which the CLI cannot be told (`aws:cdk:bundling-stacks`, set by `cdk synth` to
 * every stack). Built in this test process, where aws-cdk-lib is already loaded: in a process of its
 * own, as `cdk synth` runs the app, it took 6.4 s of CPU, most of it loading.
 */
async function unbundledSynthInto(out: string) {
  const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: object };
  const context = {
    ...cdkJson.context,
    'aws:cdk:enable-asset-metadata': true,
    'aws:cdk:bundling-stacks': [],
  };
  // As the app does it: built aside, then moved in whole (the bundled synth's app may be there first).
  const builds = join(process.cwd(), 'cdk.out', 'console');
  mkdirSync(builds, { recursive: true });
  const { outdir: scratch } = await buildConsole(mkdtempSync(join(builds, 'build-')));
  const consoleBuild = join(builds, folderHash(scratch));
  try {
    renameSync(scratch, consoleBuild);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
  buildApp(testApp({ outdir: out, context }), consoleBuild).synth();
  return synthesised(out);
}

/**
 * Two synths per run, shared by the tests below: `npm run synth` into a shallow folder, and the app
 * without bundling into a folder three levels deeper. The asset hashes must depend on neither where
 * the output goes nor the bundles themselves (they hash the sources, infra/bundling.ts): a deploy
 * uploads a function again only when its code changed. Bundling only once saves 8 s of CPU a run.
 */
let shallow: Awaited<ReturnType<typeof synthInto>>;
let deep: Awaited<ReturnType<typeof synthInto>>;
beforeAll(async () => {
  [shallow, deep] = await Promise.all([
    synthInto(mkdtempSync(join(tmpdir(), 'synth-'))),
    unbundledSynthInto(join(mkdtempSync(join(tmpdir(), 'synth-')), 'one', 'level', 'deeper')),
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

  it('gives every bundle the same asset hash whatever folder the synth writes to, bundled or not', () => {
    // The key each bundle is uploaded under: `<asset hash>.zip`.
    const assets = ({ functions }: typeof shallow) =>
      functions.map((r) => JSON.stringify(r.Properties.Code.S3Key)).sort();
    const bundled = ({ out, functions }: typeof shallow) =>
      functions.filter((r) => existsSync(join(out, r.Metadata['aws:asset:path'] ?? '', 'index.mjs'))).length;

    expect(bundled(deep)).toBe(0);
    expect(bundled(shallow)).toBe(shallow.functions.length);
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
    // Split-off chunks (the seat maps, and what they share with the page) are imported by a script the
    // page names (web/src/seats/hook.tsx), not named by the page.
    const scripts = assets.filter((name) => name.endsWith('.js'));
    const imported = (name: string) =>
      scripts.some((other) => readFileSync(join(dir, 'assets', other), 'utf8').includes(`./${name}`));
    for (const name of assets) expect(page.includes(`/assets/${name}`) || imported(name), name).toBe(true);
  });
});
