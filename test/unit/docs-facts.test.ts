import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { airlines, networkRoutes } from '#shared/flights/network.ts';
import { README_BLOCKS, readmeBlock } from '#test/helpers/readme.ts';
import { handler as openapiHandler } from '../../functions/docs/openapi.ts';

/** README.md and the guides: what a newcomer reads first. */
const documents = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];
const text = (file: string) => readFileSync(file, 'utf8');

/** Paths the documents name as ones the reader creates, not ones the repository holds. */
const TO_BE_CREATED = new Set(['infra/stages/staging.json']);

/** Every file of the repository's own folders, for the documents' globs (`walkthrough*.test.ts`). */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
const ROOTS = ['shared', 'functions', 'infra', 'test', 'docs', 'web', '.ci'];
const repositoryFiles = ROOTS.filter((root) => existsSync(root)).flatMap(filesUnder);

/**
 * The repository paths a document names, in prose or code: text starting with one of the project's
 * folders, never a placeholder (`infra/stages/<stage>.json`).
 */
const pathsNamed = documents.flatMap((file) =>
  [
    ...text(file).matchAll(
      /(?<![\w./<$-])((?:shared|functions|infra|test|docs|web|\.ci)\/[\w./*<>-]*[\w*/])/g,
    ),
  ]
    .map((match) => match[1] ?? '')
    .filter((path) => !path.includes('<') && !TO_BE_CREATED.has(path))
    .map((path) => [file, path] as const),
);
const exists = (path: string) => {
  if (!path.includes('*')) return existsSync(path);
  const glob = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
  return repositoryFiles.some((file) => glob.test(file));
};

describe('what README.md and docs/ say about the repository', () => {
  it('names repository paths to check', () => {
    expect(pathsNamed.length).toBeGreaterThan(50);
  });

  it.each(pathsNamed)('%s names %s, which exists', (_file, path) => {
    expect(exists(path), `${path} exists`).toBe(true);
  });

  it("states the built-in network's counts as network.ts has them", () => {
    const routes = networkRoutes();
    const airports = new Set(routes.flatMap((route) => [route.a, route.b])).size;
    const lhrJfk = routes.find((route) => route.a === 'LHR' && route.b === 'JFK');
    const directLhrJfk = lhrJfk?.carriers.reduce((sum, c) => sum + c.daily, 0);

    expect(text('README.md')).toContain(
      `a network of ${airlines.length} airlines between ${airports} airports`,
    );
    expect(text('README.md')).toContain(`the ${directLhrJfk} direct flights`);
    expect(text('docs/flights.md')).toContain(
      `${airlines.length} real airlines with their IATA codes and hubs, and ${routes.length}`,
    );
    expect(text('docs/flights.md')).toContain(`flights exist between the\n  ${airports} the network serves`);
  });

  it('points up or down to the first-deploy checklist where it is', () => {
    const readme = text('README.md').replace(/\s+/g, ' ');
    const checklist = readme.indexOf('**First-deploy checklist.**');
    const pointers = [...readme.matchAll(/checklist (above|below)/g)];

    expect(checklist).toBeGreaterThan(0);
    expect(pointers.length).toBeGreaterThan(0);
    for (const pointer of pointers)
      expect([pointer[0], pointer.index > checklist ? 'above' : 'below']).toEqual([pointer[0], pointer[1]]);
  });

  it('states no count of tests, which every new test would make wrong', () => {
    for (const file of documents) expect(text(file), file).not.toMatch(/\b\d[\d,]* tests\b/);
  });

  it("states /openapi.json's Cache-Control as the handler answers it", async () => {
    const answer = await openapiHandler({ requestContext: { requestId: 'r' } } as never);
    const cacheControl = answer.headers?.['Cache-Control'];

    expect(cacheControl).toBe('public, max-age=300');
    expect(text('docs/API.md')).toContain(`\`Cache-Control: ${cacheControl}\``);
    expect(text('docs/API.md')).not.toMatch(/Every answer carries[^.]*no-store/);
  });

  it('numbers the sections of docs/API.md in the order they come', () => {
    // `3.3a` sorts right after `3.3`: a section added between two numbered ones.
    const numbers = [...text('docs/API.md').matchAll(/^#{2,3} (\d+(?:\.\d+[a-z]?)?)[. ]/gm)].map(
      (m) => m[1] ?? '',
    );
    const key = (n: string) => {
      const [major = '0', minor = '0'] = n.split('.');
      return [Number(major), Number.parseInt(minor, 10), minor.replace(/\d+/, '')] as const;
    };
    const sorted = [...numbers].sort((a, b) => {
      const [aMajor, aMinor, aLetter] = key(a);
      const [bMajor, bMinor, bLetter] = key(b);
      return aMajor - bMajor || aMinor - bMinor || aLetter.localeCompare(bLetter);
    });

    expect(numbers.length).toBeGreaterThan(10);
    expect(numbers).toEqual(sorted);
  });

  it.each(README_BLOCKS)('runs the README %s block in a subshell that stops at its first error', (name) => {
    const block = readmeBlock(name).trim();

    expect(block.split('\n')[0]).toMatch(/^\( set -euo pipefail\b/);
    expect(block.endsWith('\n)')).toBe(true);
  });
});
