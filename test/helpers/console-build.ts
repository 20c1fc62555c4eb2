import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The files of a tiny console build, as the real one lays them out: the page and hashed assets. */
export const FIXTURE_CONSOLE = {
  'index.html':
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="/assets/app-5EC0A3B1.css"></head>' +
    '<body><div id="app"></div><script type="module" src="/assets/app-7D2C9F04.js"></script></body></html>',
  'assets/app-7D2C9F04.js': 'document.getElementById("app").textContent = "console";',
  'assets/app-5EC0A3B1.css': 'body { margin: 0; }',
} as const;

/** Writes {@link FIXTURE_CONSOLE} (and `extra` files) into a new folder: a build the stack and the function take. */
export function writeFixtureConsoleBuild(extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-build-'));
  for (const [name, body] of Object.entries({ ...FIXTURE_CONSOLE, ...extra })) {
    const file = join(dir, ...name.split('/'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, body);
  }
  return dir;
}

let fixture: string | undefined;

/** One fixture build per test process, for every stack a test synthesises. */
export function fixtureConsoleBuild(): string {
  fixture ??= writeFixtureConsoleBuild();
  return fixture;
}
