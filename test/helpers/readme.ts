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

/** The demo agent, as the README's blocks sign it in. */
const DEMO_AGENT = 'agent@example.com';

/**
 * Runs README block `name` with a plain bash, as a reader pasting it would (no options of ours: the
 * block's own `set -euo pipefail` decides where it stops), against `server` (plus `env`). With `agent`,
 * the block signs that agent in wherever it signs in the demo agent: on a server other files share
 * (test/helpers/shared-server.ts), whose demo agent's codes are throttled per identifier.
 */
export async function readmeBlockRun(
  name: string,
  server: Pick<LocalServer, 'url' | 'dataDir'>,
  env: Record<string, string> = {},
  agent = DEMO_AGENT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('bash', ['-c', readmeBlock(name).replaceAll(DEMO_AGENT, agent)], {
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
  server: Pick<LocalServer, 'url' | 'dataDir'>,
  env: Record<string, string> = {},
  agent = DEMO_AGENT,
): Promise<string> {
  const result = await readmeBlockRun(name, server, env, agent);
  if (result.code !== 0) throw new Error(`README block ${name} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}
