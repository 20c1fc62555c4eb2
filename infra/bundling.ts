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
} as const;
