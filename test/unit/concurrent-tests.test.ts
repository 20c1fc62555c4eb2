import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests that run concurrently share one imported `expect`, which cannot tell which test is calling:
 * `expect.poll`, `expect.soft`, `expect.assertions` and snapshots then fail at random ("must be called
 * inside a test"), as one CI run did. Such files use Playwright's own waits or the test's `expect`.
 */
const ROOT = 'test';
const ASYNC_MATCHERS = /\bexpect\s*\.\s*(poll|soft|assertions|hasAssertions)\b|toMatch(Inline)?Snapshot/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('concurrent test files', () => {
  const concurrent = testFiles(ROOT).filter((path) =>
    /\b(describe|it|test)\.concurrent\b/.test(readFileSync(path, 'utf8')),
  );

  it('are found (the check looks at something)', () => {
    expect(concurrent.length).toBeGreaterThan(0);
  });

  it.each(concurrent)('%s uses no matcher that needs its own test', (path) => {
    const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code.match(ASYNC_MATCHERS)?.[0] ?? null).toBeNull();
  });
});
