import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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
});
