import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parseSync } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';

/**
 * The floors of each house, bottom first. A room is a folder (`shared/db/`), the loose files of a
 * folder (`shared/*`), one file, or each folder of a folder on its own (`functions/*` then `/`: every
 * handler folder is a room); a file belongs to the longest pattern that names it. A file may import
 * its own room and the rooms of lower floors of its house: anything else is an arrow back up, or
 * across (the rooms of one floor know nothing of each other), or out of its house. The order is the
 * one the code follows: plain values, then storage, then the domain from who is calling up to what
 * happens after a booking, then the doors (HTTP, the document, the console), the handlers, and the
 * infrastructure that deploys or runs them. A file of no room fails below: a new folder takes a floor.
 */
const houses: Readonly<Record<string, readonly (readonly string[])[]>> = {
  service: [
    // Values with no domain: errors, clock, money, config, encodings; and the generated API document.
    ['shared/*', 'openapi.json'],
    ['shared/db/'],
    // The code senders' port and adapters, which sign-in uses.
    ['shared/notify/'],
    ['shared/auth/'],
    // Who may call what (the route table), the function's context, agencies, and the flights themselves.
    ['shared/routes.ts', 'shared/context.ts', 'shared/agency/', 'shared/flights/'],
    // Where flights are bought: the port, the built-in network and Duffel.
    ['shared/supply/'],
    // The booking entity: keys, shape, reads and every write of the booking and its side items.
    ['shared/bookings/entity/'],
    // The booking routes' actions, and booking's flow: its interface and the in-table flows.
    ['shared/bookings/'],
    // The remote supplier's flows: ordering, holds, confirm, cancel and the sweep's part around its calls.
    ['shared/supply/remote/'],
    // Each supplier's wiring: its part of the port paired with booking's flow for its kind (`#supplier/*`).
    ['shared/supply/wiring/'],
    // The supplier functions' contexts, from the stage's one wiring.
    ['shared/offer-context.ts', 'shared/order-context.ts', 'shared/supply/context.ts'],
    ['shared/events/'],
    // The doors: HTTP replies and the OpenAPI document know the domain, never the other way round.
    ['shared/http/', 'shared/openapi/'],
    ['shared/console/'],
    ['functions/*/'],
    // The console's build is used both by the stack and by the dev server.
    ['infra/web/'],
    ['infra/*', 'infra/local/', 'infra/data/', 'infra/openapi/'],
    ['infra/cli/'],
  ],
  // The agent console, browser code typed from openapi.json: the service never imports it, nor it the service.
  console: [['web/api/'], ['web/src/']],
};

/** The folders the houses cover, each walked whole. */
const TREE = ['shared', 'functions', 'infra', 'web'];

/** Every source file under `dir`, recursively (dependencies' folders aside). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules'
      ? []
      : entry.isDirectory()
        ? sources(join(dir, entry.name))
        : /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name)
          ? [join(dir, entry.name)]
          : [],
  );
}

/**
 * package.json `imports` (`#shared/*` → `./shared/*`): an alias is an arrow like a relative path. A
 * conditional one (`#supplier/orders`: one target per supplier, chosen at build time) is an arrow to
 * each of its targets.
 */
const aliases = Object.entries(
  (
    JSON.parse(readFileSync('package.json', 'utf8')) as {
      imports: Record<string, string | Record<string, string>>;
    }
  ).imports,
).map(([alias, target]) => [alias, typeof target === 'string' ? [target] : Object.values(target)] as const);

/**
 * What `code` (the text of `file`) imports from the tree, as paths from the repository's root: static
 * imports and re-exports (type-only ones too: they are arrows all the same), side-effect imports,
 * `import()` (dynamic, or in a type) and `require()`; packages left out.
 */
function importsOf(file: string, code: string): string[] {
  const specifiers = [
    /^\s*(?:import|export)\b[\w$\s{},*]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ].flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1] ?? ''));
  const paths = specifiers.flatMap((specifier) => {
    if (specifier.startsWith('.')) return [normalize(join(dirname(file), specifier))];
    for (const [alias, targets] of aliases) {
      const prefix = alias.replace('*', '');
      if (alias.includes('*') ? specifier.startsWith(prefix) : specifier === alias)
        return targets.map((target) => normalize(target.replace('*', specifier.slice(prefix.length))));
    }
    return [];
  });
  return [...new Set(paths)];
}

/** The imports of every file under `folders`. */
const graphOf = (folders: string[]) =>
  new Map(folders.flatMap(sources).map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));

const graph = graphOf(TREE);

/** The room, floor and house of `file`, from the longest pattern naming it. */
function placeOf(file: string) {
  let best: { room: string; floor: number; house: string; length: number } | undefined;
  for (const [house, floors] of Object.entries(houses)) {
    floors.forEach((rooms, floor) => {
      for (const pattern of rooms) {
        const room = roomOf(pattern, file);
        if (room && (!best || pattern.length > best.length))
          best = { room, floor, house, length: pattern.length };
      }
    });
  }
  return best;
}

/** The room `pattern` puts `file` in, if it names it. */
function roomOf(pattern: string, file: string): string | undefined {
  if (pattern.endsWith('*/')) {
    const parent = pattern.slice(0, -2);
    const sub = file.startsWith(parent) ? file.slice(parent.length).split('/') : [];
    return sub.length > 1 ? `${parent}${sub[0]}/` : undefined;
  }
  if (pattern.endsWith('/*')) return dirname(file) === pattern.slice(0, -2) ? pattern : undefined;
  if (pattern.endsWith('/')) return file.startsWith(pattern) ? pattern : undefined;
  return file === pattern ? pattern : undefined;
}

describe('importsOf', () => {
  it('reads every kind of import, through relative paths and package.json aliases alike', () => {
    const code = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from '#shared/c.ts';",
      "export { d } from './d.ts';",
      "export * from './e.ts';",
      "import './f.ts';",
      "const { g } = await import('./g.ts');",
      "type H = typeof import('./h.ts');",
      "const i = require('./i.cjs');",
      "import { z } from 'zod';",
      "// import { j } from './j.ts';",
      " * import { k } from './k.ts';",
    ].join('\n');

    expect(importsOf('shared/x/y.ts', code).sort()).toEqual([
      'shared/b.ts',
      'shared/c.ts',
      'shared/x/a.ts',
      'shared/x/d.ts',
      'shared/x/e.ts',
      'shared/x/f.ts',
      'shared/x/g.ts',
      'shared/x/h.ts',
      'shared/x/i.cjs',
    ]);
  });
});

describe('architecture of the whole tree', () => {
  it('reads the imports of every file of shared/, functions/, infra/ and web/', () => {
    const files = [...graph.keys()];
    // Every handler composes from shared/ (mostly through `#shared/…`): one that seems to import nothing
    // means the reading missed a form.
    const handlersImportingNothing = files.filter(
      (file) => file.startsWith('functions/') && graph.get(file)?.length === 0,
    );

    expect(TREE.filter((top) => !files.some((file) => file.startsWith(`${top}/`)))).toEqual([]);
    expect(handlersImportingNothing).toEqual([]);
    expect([...graph.values()].flat().filter((target) => !existsSync(target))).toEqual([]);
  });

  it('puts every file, and everything imported, in a room of a house', () => {
    const files = new Set([...graph.keys(), ...[...graph.values()].flat()]);

    expect([...files].filter((file) => !placeOf(file))).toEqual([]);
  });

  it('has no arrow back up, across a floor, or out of its house', () => {
    const wrong = [...graph].flatMap(([file, imports]) => {
      const from = placeOf(file);
      return imports.flatMap((target) => {
        const to = placeOf(target);
        if (!from || !to || from.room === to.room || (from.house === to.house && to.floor < from.floor))
          return [];
        const way = from.house !== to.house ? 'out of its house' : to.floor > from.floor ? 'up' : 'across';
        return [`${file} → ${target}: ${way}, ${from.room} (${from.floor}) → ${to.room} (${to.floor})`];
      });
    });

    expect(wrong).toEqual([]);
  });

  it('has no import circle, the tests included', () => {
    // The tests have no floor (they may import anything) but a circle among them is one all the same.
    const all = graphOf([...TREE, 'test']);
    // Depth first: an arrow to a file still on the path closes a circle.
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      for (const target of all.get(file) ?? []) {
        const at = path.indexOf(target);
        if (at >= 0) circles.push([...path.slice(at), target].join(' → '));
        else if (!done.has(target)) visit(target, [...path, target]);
      }
      done.add(file);
    };
    for (const file of all.keys()) if (!done.has(file)) visit(file, [file]);

    expect(circles).toEqual([]);
  });
});

describe('architecture of shared/', () => {
  const shared = [...graph.keys()].filter((file) => file.startsWith('shared/') && file.endsWith('.ts'));

  it('writes each key format of the table once, in the module of its item', () => {
    // Key prefixes (`BOOKING#`) and sort keys (`sk: 'PROFILE'`) as the code writes them, comments aside.
    const writers = new Map<string, Set<string>>();
    for (const file of shared) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const formats = [...code.matchAll(/[`'"]([A-Z]+#)|\bsk: '([A-Z]+)'/g)].map((m) => m[1] ?? m[2] ?? '');
      for (const format of formats) writers.set(format, new Set([...(writers.get(format) ?? []), file]));
    }
    const misplaced = [...writers].filter(
      ([, files]) =>
        files.size !== 1 || ![...files].every((file) => /-item\.ts$|^shared\/db\/table\.ts$/.test(file)),
    );

    expect(writers.size).toBeGreaterThanOrEqual(18);
    expect(misplaced).toEqual([]);
  });

  it('writes the booking item only from its home: keys, expressions and each route’s write list', () => {
    // The home: the item (keys, shape, reads), its state changes, its supplier-call claims, each route's
    // writes (booking-item.ts; booking-writes.ts and booking-ends.ts). Elsewhere in bookings/ only other items' own modules spell a write.
    const home = /^shared\/bookings\/entity\/booking(-item|-updates|-calls|-writes|-ends)?\.ts$/;
    const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    // infra/ reads the key's shape for the stream's filter and writes nothing: it is not counted.
    const keyed = [...graph.keys()].filter(
      (file) => !home.test(file) && !file.startsWith('infra/') && /\bbookingKey\b/.test(code(file)),
    );
    const spelled = [...graph.keys()].filter(
      (file) =>
        (file.startsWith('shared/bookings/') || file.startsWith('shared/supply/remote/')) &&
        !home.test(file) &&
        !file.endsWith('-item.ts') &&
        /\b(UpdateExpression|ConditionExpression|Key):/.test(code(file)),
    );

    expect(keyed).toEqual([]);
    expect(spelled).toEqual([]);
  });

  it('writes every transaction through the one helper, db/transaction.ts transact', () => {
    // Named slots, built again for each try, retried while its caller says so, answered from a re-read
    // on a lost write: one way, so no module hand-writes a TransactWriteItems and its retry loop.
    const sent = [...graph.keys()].filter(
      (file) =>
        file.startsWith('shared/') &&
        !file.startsWith('shared/db/') &&
        /\bTransactWriteCommand\b/.test(readFileSync(file, 'utf8')),
    );

    expect(sent).toEqual([]);
  });
});

/**
 * The longest a function may be, in lines from its first to its last (signature to closing brace). A
 * function is every function-like node of the syntax tree: declarations, function expressions, arrow
 * functions, methods, accessors and constructors; a Preact component is a function like any other.
 * A function's lines include those of the functions written inside it: a long one is split by moving
 * a concept out to a named function (or component), not by nesting it.
 */
const FUNCTION_LINES = 60;

/**
 * Files the guard does not read: data tables (written or generated as data, no logic) and generated
 * code. Type declarations (`.d.ts`, the console's schema) have no function bodies and are left out too.
 */
const NOT_CODE = [
  'shared/flights/airport-data.ts',
  'shared/flights/world-airport-data.ts',
  'shared/flights/zone-offsets.ts',
  'shared/auth/phone-metadata.ts',
];

interface Span {
  file: string;
  line: number;
  name: string;
  lines: number;
}

type Tree = { type?: string; [key: string]: unknown };

/** A name for a key, callee or assignment target: an identifier, a literal or the last property. */
function nameOf(node: unknown): string | undefined {
  const n = node as Tree | undefined;
  if (!n) return undefined;
  if (n.type === 'Identifier' || n.type === 'PrivateIdentifier') return String(n.name);
  if (n.type === 'Literal') return String(n.value);
  if (n.type === 'MemberExpression') return nameOf(n.property);
  return undefined;
}

/** How the function `node`, inside `parent`, is called in a report: its own name, or the one it is given. */
function functionName(node: Tree, parent: Tree | undefined, owner: string | undefined): string {
  const own = nameOf(node.id);
  if (own) return own;
  const key = nameOf(parent?.key);
  if (
    parent?.type === 'MethodDefinition' ||
    parent?.type === 'Property' ||
    parent?.type === 'PropertyDefinition'
  )
    return owner ? `${owner}.${key}` : (key ?? '(anonymous)');
  if (parent?.type === 'VariableDeclarator') return nameOf(parent.id) ?? '(anonymous)';
  if (parent?.type === 'AssignmentExpression') return nameOf(parent.left) ?? '(anonymous)';
  if (parent?.type === 'CallExpression' || parent?.type === 'NewExpression')
    return `(callback of ${nameOf(parent.callee) ?? 'a call'})`;
  return '(anonymous)';
}

/** Every function of `code` (the text of `file`, .ts or .tsx) with its first line, name and length in lines. */
function functionsOf(file: string, code: string): Span[] {
  const parsed = parseSync(file, code);
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`);
  const lineStarts = [0, ...[...code.matchAll(/\n/g)].map((m) => m.index + 1)];
  const lineAt = (offset: number) => lineStarts.findLastIndex((start) => start <= offset) + 1;
  const spans: Span[] = [];
  const visit = (node: Tree, parent: Tree | undefined, owner: string | undefined) => {
    const isFunction = /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(
      node.type ?? '',
    );
    if (isFunction && node.body) {
      const line = lineAt(node.start as number);
      const lines = lineAt(node.end as number) - line + 1;
      spans.push({ file, line, name: functionName(node, parent, owner), lines });
    }
    const inner = /^Class(Declaration|Expression)$/.test(node.type ?? '')
      ? (nameOf(node.id) ?? owner)
      : owner;
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value])
        if (child && typeof child === 'object' && 'type' in child) visit(child as Tree, node, inner);
    }
  };
  visit(parsed.program as unknown as Tree, undefined, undefined);
  return spans;
}

/** How the guard names a function over the limit: where it starts, its name and its length. */
const reportOf = (span: Span) => `${span.file}:${span.line} ${span.name} (${span.lines} lines)`;

/** The functions of `code` over {@link FUNCTION_LINES}, as the guard reports them. */
const tooLong = (file: string, code: string) =>
  functionsOf(file, code)
    .filter((span) => span.lines > FUNCTION_LINES)
    .map(reportOf);

describe('functionsOf', () => {
  it('finds every kind of function with its name, first line and length, nested ones counted in', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const code = [
      `export function planted(): number {\n${body(60)}\n  return 0;\n}`,
      `const arrow = (a: number): number => {\n${body(3)}\n  return a;\n};`,
      'class Stack {',
      '  constructor() {',
      '    [1].map((x) => x);',
      '  }',
      '  get size(): number { return 1; }',
      '}',
      'export const Screen = () => <p>{[1].map(function row(i) { return i; })}</p>;',
      // Offsets count UTF-16 units, not bytes: a line of curly quotes moves nothing below it.
      `// ${'’'.repeat(40)}`,
      'function',
      'last() {}',
    ].join('\n');

    expect(functionsOf('shared/x.tsx', code)).toEqual([
      { file: 'shared/x.tsx', line: 1, name: 'planted', lines: 63 },
      { file: 'shared/x.tsx', line: 64, name: 'arrow', lines: 6 },
      { file: 'shared/x.tsx', line: 71, name: 'Stack.constructor', lines: 3 },
      { file: 'shared/x.tsx', line: 72, name: '(callback of map)', lines: 1 },
      { file: 'shared/x.tsx', line: 74, name: 'Stack.size', lines: 1 },
      { file: 'shared/x.tsx', line: 76, name: 'Screen', lines: 1 },
      { file: 'shared/x.tsx', line: 76, name: 'row', lines: 1 },
      { file: 'shared/x.tsx', line: 78, name: 'last', lines: 2 },
    ]);
  });

  it('reports a planted function over 60 lines, its nested function counted in, and lets one of 60 pass', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const code = [
      `function sixty() {\n${body(58)}\n}`,
      `export const outer = () => {\n  const planted = function () {\n${body(57)}\n  };\n  return planted;\n};`,
    ].join('\n');

    // `planted` is 59 lines itself; `outer`, holding it, is 62.
    expect(tooLong('web/src/x.tsx', code)).toEqual(['web/src/x.tsx:61 outer (62 lines)']);
  });
});

describe('architecture of every function', () => {
  it(`has no function over ${FUNCTION_LINES} lines in shared/, functions/, infra/ and web/ but the data tables`, () => {
    const files = [...graph.keys()].filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !NOT_CODE.includes(file),
    );
    const long = files
      .flatMap((file) => functionsOf(file, readFileSync(file, 'utf8')))
      .filter((span) => span.lines > FUNCTION_LINES)
      .map(reportOf);

    expect(files.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });
});
