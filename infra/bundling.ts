import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How every function is bundled, in one place: the stack hands these to NodejsFunction, the benchmarks
 * to esbuild directly, so what is measured is what is deployed.
 */
export const bundling = {
  format: 'esm',
  target: 'node24',
  platform: 'node',
  minify: true,
  /** Shipped for debugging; not enabled at run time (--enable-source-maps costs ~15 % cold start). */
  sourceMap: true,
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

/** Every file a bundle can be built from: the function entries, the shared code, the lock file, the document. */
function sourceFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return [...walk('functions'), ...walk('shared'), 'package-lock.json', 'openapi.json'].sort();
}

let treeHash: string | undefined;

/**
 * The asset hash of a function's bundle, from its sources rather than its output: esbuild's source
 * map records paths relative to the folder it bundles into, so hashing the output would make the hash
 * (and a redeploy) depend on where `cdk synth` writes. Any change to the code, the lock file or these
 * settings changes every hash.
 */
export function sourceAssetHash(root: string, entry: string): string {
  if (!treeHash) {
    const hash = createHash('sha256').update(JSON.stringify(bundling));
    for (const file of sourceFiles(root)) hash.update(file).update(readFileSync(join(root, file)));
    treeHash = hash.digest('hex');
  }
  return createHash('sha256').update(treeHash).update(entry).digest('hex');
}
