import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleAliases, bundling } from '../../infra/bundling.ts';

export const root = join(import.meta.dirname, '..', '..');

/** Percentile by nearest rank of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}
export const median = (samples: readonly number[]) => percentile(samples, 50);

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
export const ratio = (value: number, baseline: number) => round(value / baseline, 2);

/**
 * Bundles `entry` exactly as the stack does (infra/bundling.ts), into `outDir/index.mjs`.
 * `contents` replaces the entry with inline source (for the baselines).
 */
export async function bundle(
  outDir: string,
  entry: { file: string } | { contents: string },
): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'index.mjs');
  await build({
    ...('file' in entry
      ? { entryPoints: [join(root, entry.file)] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts' } }),
    bundle: true,
    outfile,
    absWorkingDir: root,
    format: bundling.format,
    platform: bundling.platform,
    target: bundling.target,
    minify: bundling.minify,
    sourcemap: bundling.sourceMap ? 'external' : false,
    external: [...bundling.externalModules],
    banner: { js: bundling.banner },
    alias: bundleAliases(root),
    logLevel: 'silent',
  });
  return outfile;
}

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

export function writeReport(file: string, text: string): void {
  writeFileSync(file, text);
}
