import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The folders whose every file the map names: the service, its entries, its infrastructure, the console. */
const MAPPED = ['shared', 'functions', 'infra', 'web'];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules'
      ? []
      : entry.isDirectory()
        ? filesUnder(join(dir, entry.name))
        : [join(dir, entry.name)],
  );

const FILE_NAME = /(?<![\w./-])(?:[\w.-]+\/)*[\w.-]+\.(?:tsx|ts|cjs|mjs|json|css|svg|java)(?![\w])/g;

/**
 * The paths a map names. Each line whose text starts at most two columns right of the last such line
 * is an entry; deeper lines continue it. An entry that starts with `folder/` opens that folder for the
 * lines indented under it; every file name on an entry and its continuation lines is read relative to
 * the folder the entry is in (its own, when it starts with one): `bookings/` then `  holds.ts` under
 * `shared/` names `shared/bookings/holds.ts`, and `jobs/sweep.ts` on the `functions/` line names
 * `functions/jobs/sweep.ts`. A name that starts with a top-level folder of the map is a whole path
 * (`infra/web/build.ts` on the `infra/` line), as docs-facts.test.ts reads it.
 */
function namedPaths(map: string): Set<string> {
  const named = new Set<string>();
  const roots = [...map.matchAll(/^[\w.-]+\//gm)].map((match) => match[0]);
  const open: { indent: number; dir: string }[] = [];
  let entryIndent = -2;
  let context = '';
  for (const line of map.split('\n')) {
    const text = line.trimStart();
    if (!text) continue;
    const indent = line.length - text.length;
    if (indent <= entryIndent + 2) {
      entryIndent = indent;
      while (open.length && (open.at(-1)?.indent ?? 0) >= indent) open.pop();
      const base = open.at(-1)?.dir ?? '';
      const folder = /^([\w.-]+\/)+(?=\s|$)/.exec(text)?.[0];
      context = folder ? base + folder : base;
      if (folder) open.push({ indent, dir: context });
    }
    for (const [name] of text.matchAll(FILE_NAME))
      named.add(roots.some((root) => name.startsWith(root)) ? name : context + name);
  }
  return named;
}

const readmeMap = () =>
  /```\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8').split('## Where things live')[1] ?? '')?.[1] ??
  '';

describe('the README map', () => {
  it(`names every file of ${MAPPED.join('/, ')}/ by its path, so behaviour leads to the file that decides it`, () => {
    const named = namedPaths(readmeMap());

    const unnamed = MAPPED.flatMap(filesUnder).filter((file) => !named.has(file));

    expect(unnamed).toEqual([]);
  });

  it(`names no file of ${MAPPED.join('/, ')}/ that is not there`, () => {
    const stale = [...namedPaths(readmeMap())].filter(
      (path) => MAPPED.some((root) => path.startsWith(`${root}/`)) && !existsSync(path),
    );

    expect(stale).toEqual([]);
  });

  it('reads a name in the folder it is listed under, not anywhere', () => {
    const map = [
      'functions/        one entry per route; jobs/sweep.ts the sweep',
      'shared/           the service',
      '  context.ts      shared context',
      '  bookings/       bookings',
      '    holds.ts      holds; held-item.ts the listing',
      '    sweep.ts,     a file listed twice, once by its own entry',
      '                  continued: ids.ts',
      '  supply/         suppliers',
      '    duffel/       adapter.ts, client.ts',
      '  log.ts          back at shared/',
      'infra/            app.ts; web/build.ts; infra/local/start.ts',
    ].join('\n');

    expect([...namedPaths(map)].sort()).toEqual([
      'functions/jobs/sweep.ts',
      'infra/app.ts',
      'infra/local/start.ts',
      'infra/web/build.ts',
      'shared/bookings/held-item.ts',
      'shared/bookings/holds.ts',
      'shared/bookings/ids.ts',
      'shared/bookings/sweep.ts',
      'shared/context.ts',
      'shared/log.ts',
      'shared/supply/duffel/adapter.ts',
      'shared/supply/duffel/client.ts',
    ]);
  });
});
