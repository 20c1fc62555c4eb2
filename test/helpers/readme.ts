import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { LocalServer } from './local-server.ts';

const run = promisify(execFile);

/** The README's walkthrough blocks: each a reader pastes into a terminal on its own. */
export const README_BLOCKS = ['walkthrough', 'holds', 'events', 'agency'] as const;

/** The shell block between `<!-- name:start -->` and `<!-- name:end -->` of README.md, verbatim. */
export function readmeBlock(name: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = new RegExp(
    `<!-- ${name}:start -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`,
  ).exec(readme);
  if (!section?.[1]) throw new Error(`README.md has no ${name} block`);
  return section[1];
}

/**
 * Runs README block `name` with a plain bash, as a reader pasting it would (no options of ours: the
 * block's own `set -euo pipefail` decides where it stops), against `server` (plus `env`).
 */
export async function readmeBlockRun(
  name: string,
  server: LocalServer,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('bash', ['-c', readmeBlock(name)], {
      env: { ...process.env, API: server.url, DATA_DIR: server.dataDir, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs README block `name` as readmeBlockRun does; its stdout, or a failure showing its stderr. */
export async function runReadmeBlock(
  name: string,
  server: LocalServer,
  env: Record<string, string> = {},
): Promise<string> {
  const result = await readmeBlockRun(name, server, env);
  if (result.code !== 0) throw new Error(`README block ${name} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}
