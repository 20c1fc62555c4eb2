import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

describe('the README map', () => {
  it('names every file of shared/, so behaviour leads to the file that decides it', () => {
    const map = readFileSync('README.md', 'utf8').split('## Where things live')[1]?.split('\n## ')[0] ?? '';

    const unnamed = filesUnder('shared').filter((file) => !map.includes(basename(file)));

    expect(unnamed).toEqual([]);
  });
});
