import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('runtime', () => {
  it('runs on Node.js 24, the Lambda runtime (nodejs24.x)', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('pins Node 24 in .nvmrc and engines', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe('24');
    expect(pkg.engines.node).toBe('>=24 <25');
    expect(pkg.devDependencies.node).toMatch(/^\^24\./);
  });
});
