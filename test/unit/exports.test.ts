import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every export of shared/, functions/, infra/ and web/ has an importer in another file, and production
 * is among its importers: an export only tests import widens what a module offers for nothing it does.
 * A test reaches code through what production calls (the route, the public function) or states the
 * rule itself (the contract's 50-agent cap, its CSP); code only tests need lives in test/helpers/. The
 * exceptions are listed below with their reasons: the seams tests build production over (a route or
 * the CDK app over a given context, a generator, an item key), and issue 39's pending lists, which
 * only shrink. A hook is never one: production code that exists for tests to reach inside or rewrite
 * (a log sink they swap, a schema hung on a handler). None is left, and no test may rewrite what
 * production exports.
 *
 * TypeScript 7's package has no JavaScript compiler API (only the native compiler behind an
 * unstable IPC), so this reads the source the way Biome formats it: one `export` declaration per line
 * start, imports with quoted specifiers (relative or `#shared/`, `#test/`, as package.json maps them).
 */
const EXPORTERS = ['shared', 'functions', 'infra', 'web'];
const IMPORTERS = [...EXPORTERS, 'test'];

/** Exports nothing imports by design, each with the reason. */
const ENTRY_POINTS: Record<string, string> = {
  // Lambda calls it: the route table names the file, infra/route-function.ts sets `handler: 'handler'`,
  // and the dev server and bench import it by the route's `entry` path, a computed specifier.
  'functions/**:handler': 'a Lambda entry point',
  // A compile-time assertion: its type arguments fail the type-check when a view drifts from its
  // schema; exported so it is not an unused local.
  'shared/openapi/responses.ts:ViewsMatchSchemas': 'a compile-time check',
  'shared/openapi/services-operations.ts:ServicesViewMatchesSchema': 'a compile-time check',
};

/**
 * Exports only tests import, each with the reason. Any other fails: a test reaches code through what
 * production calls (the route, the public function, the constant a caller reads), or the code is the
 * tests' own and lives under test/helpers/.
 */
const TEST_SEAMS: Record<string, string> = {
  // The route composed over the context it is given: the deployed `handler`, in the same file, is it
  // over the process's; tests pass their own clock and client (docs/decisions.md, Tests).
  'functions/**:createHandler': 'a route over a given context',
  // The same for the CDK app and a stage's configuration: `npm run synth` builds the app over the
  // committed stage files (infra/app.ts), loadStageConfig and loadAccountConfig parse a file's text.
  'infra/app.ts:buildApp': 'the app over given stages',
  'infra/stage-config.ts:parseStageConfig': 'a stage over a given file',
  'infra/stage-config.ts:StageFile': 'the shape parseStageConfig takes',
  'infra/stage-config.ts:parseAccountConfig': 'the account over a given file',
  // The generators behind `npm run airports` and `npm run phone-metadata`: tests check that the
  // committed tables are what they generate from the installed packages.
  'infra/data/airports.ts:airportData': 'a generator the tests compare with its output',
  'infra/data/airports.ts:worldAirportData': 'a generator the tests compare with its output',
  'infra/data/zone-offsets.ts:zoneOffsetTable': 'a generator the tests compare with its output',
  'infra/data/phone-metadata.ts:phoneMetadataSource': 'a generator the tests compare with its output',
  // `npm run duffel-stand-in`'s server, which the tests start in-process (test/helpers/duffel.ts).
  'infra/local/duffel-stand-in.ts:startDuffelStandIn': 'a local tool the tests start',
  'infra/local/duffel-stand-in.ts:StandInOptions': 'its options',
  'infra/local/duffel-stand-in.ts:DuffelStandIn': 'its handle',
  'infra/local/duffel-stand-in.ts:Wire': 'the JSON it answers, which tests edit',
  // The deployed console's page below its stage: the browser suite's stage test applies it in a proxy
  // in front of `npm start`, as the function does (test/browser/stage.test.ts).
  'shared/console/lambda.ts:pageBelow': 'the deployed page rewrite, which a test proxy applies',
  // Item keys and attributes: the table's layout. Tests read what a route wrote, and seed what a route
  // reads, where production keeps it.
  'shared/agency/agency-counters-item.ts:agencyCountersKey': 'an item key',
  'shared/agency/agent-item.ts:agentKey': 'an item key',
  'shared/events/delivery-item.ts:deliveryKey': 'an item key',
  'shared/flights/inventory-item.ts:inventoryKey': 'an item key',
  'shared/flights/inventory-item.ts:soldAttribute': 'an item attribute',
  'shared/flights/inventory-item.ts:TAKEN_SEATS': 'an item attribute',
  // An event's id, derived from its booking's id and version as an item key is from its fields: tests
  // predict the ids of the events a change sends.
  'shared/events/booking-event.ts:eventId': 'the event id rule',
};

/**
 * Issue 39: shared/bookings/, shared/supply/, shared/*context*.ts and functions/bookings/ were being
 * restructured when this check came, so their test-only exports are listed as they stood, to be
 * tested through their callers or moved with that work. The list only shrinks: an entry that
 * production imports again, or that is gone, fails the check below.
 */
const PENDING_TEST_ONLY: string[] = [
  'shared/bookings/entity/agency-listing.ts:LIST_READ_BUDGET',
  'shared/bookings/entity/idempotency-item.ts:idempotencyRecordKey',
  'shared/bookings/entity/idempotency-item.ts:requestFingerprint',
  'shared/bookings/entity/pnr-item.ts:pnrKey',
  'shared/bookings/request.ts:decimalPlaces',
  'shared/bookings/request.ts:ageOn',
  'shared/supply/context.ts:sellableAirports',
  'shared/supply/duffel/client.ts:secondsUntilReset',
  'shared/supply/duffel/mapping.ts:SEARCH_AGE',
  'shared/supply/duffel/mapping.ts:utcInstant',
  'shared/supply/duffel/mapping.ts:conditionsFromOffer',
];

/**
 * Test-only exports elsewhere that issue 39 has not reached yet, each a rule tested directly. Like the
 * list above, this one only shrinks.
 */
const NOT_YET_TESTED_THROUGH_CALLERS: string[] = [
  // The integration test's slow oracle for the airport search order folds text with it.
  'shared/flights/airport-search.ts:foldForSearch',
];

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules'
      ? []
      : entry.isDirectory()
        ? sourcesUnder(join(dir, entry.name))
        : /\.(ts|tsx|cts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')
          ? [join(dir, entry.name)]
          : [],
  );

/** The file's code without comments (a commented-out import or export is neither). */
const code = (file: string): string =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** The names a file exports, by declaration, `export default` and `export { a, b as c }`. */
function exportedNames(source: string): string[] {
  const declared = [
    ...source.matchAll(
      /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([\w$]+)/gm,
    ),
  ].map((match) => match[1] ?? '');
  const listed = [...source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/gm)].flatMap((match) =>
    (match[1] ?? '').split(',').map(
      (part) =>
        part
          .trim()
          .split(/\s+as\s+/)
          .at(-1) ?? '',
    ),
  );
  const fallback = /^export\s+default\b/m.test(source) ? ['default'] : [];
  return [...declared, ...listed, ...fallback].filter(Boolean);
}

/** The file a specifier names, or undefined for a package. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return normalize(join(dirname(from), specifier));
  if (specifier.startsWith('#shared/') || specifier.startsWith('#test/')) return specifier.slice(1);
  return undefined;
}

const literal = (name: string) => name.replace(/\$/g, '\\$');

/** package.json `imports` with a target per condition (`#supplier/orders`): each target is imported. */
const conditional = Object.entries(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { imports: Record<string, unknown> }).imports,
).flatMap(([alias, target]) =>
  typeof target === 'object' && target !== null
    ? [[alias, Object.values(target as Record<string, string>).map((path) => normalize(path))] as const]
    : [],
);

/** Every file a specifier names: one, none for a package, one per condition for a conditional import. */
const targetsOf = (from: string, specifier: string): string[] => {
  const targets = conditional.find(([alias]) => alias === specifier)?.[1];
  if (targets) return [...targets];
  const target = resolveSpecifier(from, specifier);
  return target ? [target] : [];
};

/** The (file, name) pairs an import or re-export `clause` takes from `target`. */
function clausePairs(
  source: string,
  rawClause: string,
  target: string,
  exportsOf: (file: string) => string[],
): [string, string][] {
  const pairs: [string, string][] = [];
  const clause = rawClause.trim();
  if (clause === '*') pairs.push(...exportsOf(target).map((name) => [target, name] as [string, string]));
  const namespace = /\*\s+as\s+([\w$]+)/.exec(clause)?.[1];
  if (namespace) {
    for (const name of exportsOf(target)) {
      if (new RegExp(`\\b${literal(namespace)}\\.${literal(name)}(?![\\w$])`).test(source))
        pairs.push([target, name]);
    }
  }
  for (const part of /\{([\s\S]*)\}/.exec(clause)?.[1]?.split(',') ?? []) {
    const name = part
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/)[0];
    if (name) pairs.push([target, name]);
  }
  if (/^[\w$]+\s*(,|$)/.test(clause) && !clause.startsWith('type ')) pairs.push([target, 'default']);
  return pairs;
}

/**
 * The (file, name) pairs `source` (the code of `file`) imports: named imports and re-exports, default
 * imports, `ns.name` of a namespace import; for a dynamic `import('…')` (destructured, indexed or
 * typeof'd) each export of the target whose name appears as an identifier in the file.
 */
function importedPairs(
  file: string,
  source: string,
  exportsOf: (file: string) => string[],
): [string, string][] {
  const pairs: [string, string][] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(?:type\s+)?([^;]*?)\s+from\s+'([^']+)'/gm)) {
    for (const target of targetsOf(file, match[2] ?? ''))
      pairs.push(...clausePairs(source, match[1] ?? '', target, exportsOf));
  }
  for (const match of source.matchAll(/import\(\s*'([^']+)'\s*\)/g)) {
    const target = resolveSpecifier(file, match[1] ?? '');
    if (!target) continue;
    for (const name of exportsOf(target)) {
      if (new RegExp(`(?<![\\w$.])${literal(name)}(?![\\w$])`).test(source)) pairs.push([target, name]);
    }
  }
  return pairs;
}

/**
 * The lines of `source` that assign to a property of a value it imports from production code
 * (`logSink.write = …`, `Object.assign(handler, …)`): a hook, production changed from outside.
 */
function rewrites(file: string, source: string): string[] {
  const locals = [...source.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+'([^']+)'/gm)].flatMap(
    (match) => {
      const target = resolveSpecifier(file, match[2] ?? '');
      if (!target || !EXPORTERS.some((dir) => target.startsWith(`${dir}/`))) return [];
      const clause = match[1] ?? '';
      const named = (/\{([\s\S]*)\}/.exec(clause)?.[1]?.split(',') ?? [])
        .filter((part) => !/^\s*type\s/.test(part))
        .map(
          (part) =>
            part
              .trim()
              .split(/\s+as\s+/)
              .at(-1) ?? '',
        );
      const whole = [/^([\w$]+)\s*(?:,|$)/.exec(clause.trim())?.[1], /\*\s+as\s+([\w$]+)/.exec(clause)?.[1]];
      return [...named, ...whole].filter((name): name is string => Boolean(name));
    },
  );
  return locals.flatMap((name) =>
    [
      ...source.matchAll(
        new RegExp(
          `^.*(?:(?<![\\w$.])${literal(name)}(?:\\.[\\w$]+)+\\s*=(?![=>])|Object\\.assign\\(\\s*${literal(name)}\\b).*$`,
          'gm',
        ),
      ),
    ].map((match) => `${file}: ${match[0].trim()}`),
  );
}

const allowed = (file: string, name: string, table: Record<string, string> = ENTRY_POINTS) =>
  Object.keys(table).some((key) => {
    const [pattern = '', allowedName] = key.split(':');
    const prefix = pattern.endsWith('/**') ? pattern.slice(0, -2) : undefined;
    return allowedName === name && (prefix ? file.startsWith(prefix) : file === pattern);
  });

describe('exports', () => {
  const exported = new Map(
    EXPORTERS.flatMap(sourcesUnder).map((file) => [file, exportedNames(code(file))] as const),
  );
  /** `file:name` of every export that a file under `dirs` (not its own) imports. */
  const importedFrom = (dirs: string[]) =>
    new Set(
      dirs.flatMap(sourcesUnder).flatMap((file) =>
        importedPairs(file, code(file), (target) => exported.get(target) ?? [])
          .filter(([target]) => target !== file)
          .map(([target, name]) => `${target}:${name}`),
      ),
    );
  const imported = importedFrom(IMPORTERS);
  const importedByProduction = importedFrom(EXPORTERS);
  const testOnly = [...exported].flatMap(([file, names]) =>
    names
      .filter((name) => !importedByProduction.has(`${file}:${name}`) && !allowed(file, name))
      .map((name) => `${file}:${name}`),
  );

  it('reads exports and imports as the code writes them', () => {
    expect(exportedNames('export async function a() {}\nexport type B = 1;\nexport { c as d };')).toEqual([
      'a',
      'B',
      'd',
    ]);
    const exportsOf = (target: string) => (target === 'shared/c.ts' ? ['y', 'unused'] : ['x', 'y', 'z']);
    const source = [
      "import { x, type y as w } from '#shared/a.ts';",
      "import * as ns from './b.ts';",
      'ns.z;',
      "const { y } = await import('../c.ts');",
      'x;',
    ].join('\n');
    expect(importedPairs('shared/d/e.ts', source, exportsOf)).toEqual([
      ['shared/a.ts', 'x'],
      ['shared/a.ts', 'y'],
      ['shared/d/b.ts', 'z'],
      ['shared/c.ts', 'y'],
    ]);
  });

  it('has no export that no other file imports', () => {
    const unused = [...exported].flatMap(([file, names]) =>
      names
        .filter((name) => !imported.has(`${file}:${name}`) && !allowed(file, name))
        .map((name) => `${file}:${name}`),
    );

    expect(exported.size).toBeGreaterThan(200);
    expect(unused).toEqual([]);
  });

  it('finds a hook where a test rewrites what production exports', () => {
    const hook = "import { logSink } from '#shared/log.ts';\nlogSink.write = (line) => lines.push(line);";
    const read = "import { logSink } from '#shared/log.ts';\nconst same = logSink.write === write;";

    expect(rewrites('test/a.test.ts', hook)).toEqual([
      'test/a.test.ts: logSink.write = (line) => lines.push(line);',
    ]);
    expect(rewrites('test/a.test.ts', read)).toEqual([]);
  });

  it('has no test rewriting production code: tests use its exports as they are', () => {
    expect(sourcesUnder('test').flatMap((file) => rewrites(file, code(file)))).toEqual([]);
  });

  it('has no export that only tests import, but the seams and the pending list', () => {
    const pending = [...PENDING_TEST_ONLY, ...NOT_YET_TESTED_THROUGH_CALLERS];
    const unexplained = testOnly.filter(
      (key) => !pending.includes(key) && !allowed(...(key.split(':') as [string, string]), TEST_SEAMS),
    );

    expect(unexplained).toEqual([]);
  });

  it('lists as seams or pending only exports that are still there and still imported by tests alone', () => {
    const seams = Object.keys(TEST_SEAMS).filter((key) => !key.includes('*'));
    const listed = [...seams, ...PENDING_TEST_ONLY, ...NOT_YET_TESTED_THROUGH_CALLERS];

    expect(listed.filter((key) => !testOnly.includes(key))).toEqual([]);
  });

  it('allows only what is still exported and still unimported', () => {
    const exact = Object.keys(ENTRY_POINTS).filter((key) => !key.includes('*'));
    const stale = exact.filter(
      (key) => imported.has(key) || !exported.get(key.split(':')[0] ?? '')?.includes(key.split(':')[1] ?? ''),
    );

    expect(stale).toEqual([]);
  });
});
