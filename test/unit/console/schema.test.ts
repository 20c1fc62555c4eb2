import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe("the console's typed client", () => {
  it('is generated from the committed openapi.json (npm run openapi rewrites it)', () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'console-schema-')), 'schema.d.ts');

    execFileSync(
      'infra/openapi/typegen/node_modules/.bin/openapi-typescript',
      ['openapi.json', '-o', fresh, '--silent'],
      { stdio: 'pipe' },
    );

    expect(readFileSync('web/api/schema.d.ts', 'utf8')).toBe(readFileSync(fresh, 'utf8'));
  });

  it('is the only way the console calls the API: no fetch of a screen’s own', () => {
    // The session check is the page's first, tiny script (boot.ts): it cannot carry the client.
    const own = new Set(['web/src/session-check.ts']);
    const sources = readdirSync('web/src', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => join('web/src', file));
    const fetching = sources.filter((file) => !own.has(file) && /\bfetch\(/.test(readFileSync(file, 'utf8')));
    expect(fetching).toEqual([]);
  });
});
