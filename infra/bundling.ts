import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * How every function is bundled, in one place: the stack hands these to NodejsFunction, the benchmarks
 * to esbuild directly, so what is measured is what is deployed.
 */
export const bundling = {
  format: 'esm',
  target: 'node24',
  platform: 'node',
  minify: true,
  /**
   * No source map ships: the functions never log a stack (SECURITY.md), so nothing would read one, and
   * each was 2.6–3.1 MB beside a 0.6–0.7 MB bundle (README, Deploy).
   */
  sourceMap: false,
  /** The AWS SDK is bundled, not taken from the runtime: smaller, and pinned to our version. */
  externalModules: [] as string[],
  /** Some bundled CommonJS calls `require`; ESM has none, so one is made. */
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  /**
   * An ES import of `node:http` builds the module's ESM namespace, which reads every export, and on
   * Node 24 that includes the lazy getters that load undici (fetch, WebSocket): 8–9 ms of every cold
   * start, for a fetch no function makes. Only @middy/util imports it that way (for STATUS_CODES), so
   * every `node:http` goes through a CommonJS module that requires it instead.
   */
  alias: { 'node:http': './shared/node-http.cjs' },
} as const;

/** The alias targets as absolute paths (esbuild resolves relative ones against its working directory). */
export const bundleAliases = (root: string): Record<string, string> =>
  Object.fromEntries(Object.entries(bundling.alias).map(([name, target]) => [name, join(root, target)]));

/**
 * Every file a bundle can be built from: the function entries, the shared code, the lock file, the
 * document, and the two files that change how the code compiles (`tsconfig.json`: esbuild reads its
 * compiler options; `package.json`: its `imports` map and module type).
 */
function sourceFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return [
    ...walk('functions'),
    ...walk('shared'),
    'package-lock.json',
    'openapi.json',
    'tsconfig.json',
    'package.json',
  ].sort();
}

/** One hash per repository root per process: every function of a synth shares it. */
const treeHashes = new Map<string, string>();

/**
 * The asset hash of a function's bundle, from its sources rather than its output, so that the hash
 * is known before bundling and never depends on where `cdk synth` writes. Any change to the code, the
 * lock file, the compiler settings or these bundling settings changes every hash.
 */
export function sourceAssetHash(root: string, entry: string): string {
  let treeHash = treeHashes.get(root);
  if (!treeHash) {
    const hash = createHash('sha256').update(JSON.stringify(bundling));
    for (const file of sourceFiles(root)) hash.update(file).update(readFileSync(join(root, file)));
    treeHash = hash.digest('hex');
    treeHashes.set(root, treeHash);
  }
  return createHash('sha256').update(treeHash).update(entry).digest('hex');
}

/** A hash of every file under `dir` (names and contents): what a function bundles from outside the code. */
export function folderHash(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex');
}

/**
 * What a function that calls the supplier is told at build time: the stage's supplier, as the condition
 * that resolves the `#supplier/*` imports (package.json `imports`) to that supplier's one wiring
 * (shared/supply/wiring/<supplier>/), so that the other supplier's code is never reached. A stage's
 * functions carry only its supplier's code; run from source, `#supplier/*` resolves to the wiring that
 * picks at run time (shared/supply/wiring/local.ts).
 */
export const supplierConditions = (supplier: string): string[] => [`supplier-${supplier}`];
