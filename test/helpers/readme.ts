import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { LocalServer } from './local-server.ts';

const run = promisify(execFile);

/** The shell block between `<!-- name:start -->` and `<!-- name:end -->` of README.md, verbatim. */
export function readmeBlock(name: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = new RegExp(
    `<!-- ${name}:start -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`,
  ).exec(readme);
  if (!section?.[1]) throw new Error(`README.md has no ${name} block`);
  return section[1];
}

/** Runs README block `name` with bash (-euo pipefail) against `server`, as a reader would (plus `env`); its stdout. */
export async function runReadmeBlock(
  name: string,
  server: LocalServer,
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeBlock(name)], {
    env: { ...process.env, API: server.url, DATA_DIR: server.dataDir, ...env },
  });
  return stdout;
}
