import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

/**
 * The supplier seam, read from the syntax tree (oxc's, through rolldown's parser) rather than the text,
 * so that `?.`, a `switch`, a renamed variable or a line break cannot dodge it. Booking code is given
 * its supplier's part of the port and its flow (shared/supply/wiring/, chosen once per bundle by the
 * `#supplier/*` imports) and never asks which supplier it has:
 * - it imports nothing of supply/ but the port (shared/supply/port.ts): no adapter, no network module,
 *   no wiring, no `#supplier/*` (the contexts, shared/offer-context.ts and order-context.ts, pair them);
 * - no value in it names a supplier or a kind of supplier (a string `'duffel'`, `'network'`,
 *   `'in-table'`, `'remote'`), wherever it stands: a comparison, a `case`, a constant, a template;
 * - route code (bookings/ but its entity/) never reads the remote supplier's call claims (`hold_call`,
 *   `cancel_call`): that state is the remote flows' (shared/supply/remote/) and the entity's.
 */

/** What booking code is: the booking routes' actions and the entity, and the booking functions. */
const BOOKING_CODE = ['shared/bookings', 'functions/bookings'];
/** The booking entity: it stores every attribute, the remote ones included. */
const ENTITY = 'shared/bookings/entity/';
const SUPPLIER_WORDS = new Set(['network', 'duffel', 'in-table', 'remote']);
const REMOTE_STATE = new Set(['hold_call', 'cancel_call']);
const PORT = 'shared/supply/port.ts';

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Every node of `root`, depth first. */
function* nodes(root: unknown): Generator<Node> {
  if (Array.isArray(root)) {
    for (const item of root) yield* nodes(item);
    return;
  }
  if (!isNode(root)) return;
  yield root;
  for (const [key, value] of Object.entries(root)) if (key !== 'type') yield* nodes(value);
}

/** The repository path an import `specifier` in `file` names: supply/ and `#supplier/*` matter here. */
function importTarget(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#supplier/')) return specifier;
  if (specifier.startsWith('#shared/')) return normalize(`shared/${specifier.slice('#shared/'.length)}`);
  if (specifier.startsWith('.')) return normalize(join(dirname(file), specifier));
  return undefined;
}

/** The module specifier a node imports, if it is an import, a re-export or an `import()`. */
function specifierOf(node: Node): string | undefined {
  const imports = [
    'ImportDeclaration',
    'ExportNamedDeclaration',
    'ExportAllDeclaration',
    'ImportExpression',
    'TSImportType',
  ];
  if (!imports.includes(node.type) || !isNode(node.source)) return undefined;
  return typeof node.source.value === 'string' ? node.source.value : undefined;
}

/** The name a node reads or writes, when it is an identifier or a property name. */
const nameOf = (node: Node): string | undefined =>
  node.type === 'Identifier' && typeof node.name === 'string'
    ? node.name
    : node.type === 'Literal' && typeof node.value === 'string'
      ? node.value
      : undefined;

/** What breaks the seam in `code`, the text of booking code `file`: one line per finding. */
function seamFindings(file: string, code: string): string[] {
  const findings: string[] = [];
  const route = !file.startsWith(ENTITY);
  for (const node of nodes(parseAst(code, { lang: file.endsWith('x') ? 'tsx' : 'ts' }, file))) {
    const specifier = specifierOf(node);
    const target = specifier === undefined ? undefined : importTarget(file, specifier);
    if (
      target &&
      (target.startsWith('#supplier/') || (target.startsWith('shared/supply/') && target !== PORT))
    )
      findings.push(`${file}: imports ${specifier}`);
    const text =
      node.type === 'Literal'
        ? node.value
        : node.type === 'TemplateElement'
          ? (node.value as { cooked?: unknown })?.cooked
          : undefined;
    if (typeof text === 'string' && SUPPLIER_WORDS.has(text))
      findings.push(`${file}: names the supplier '${text}'`);
    const name = nameOf(node);
    if (route && name !== undefined && REMOTE_STATE.has(name)) findings.push(`${file}: reads ${name}`);
  }
  return [...new Set(findings)];
}

/** Every TypeScript file under `dir`. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );

describe('seamFindings', () => {
  const finds = (code: string, file = 'shared/bookings/confirm.ts') => seamFindings(file, code);

  it('finds a switch on the supplier, however its value is reached', () => {
    const code = [
      'export function pick(ctx: { supplier?: { name: string } }) {',
      '  switch (ctx.supplier?.name) {',
      "    case 'duffel':",
      '      return 1;',
      '    default:',
      '      return 0;',
      '  }',
      '}',
    ].join('\n');

    expect(finds(code)).toEqual(["shared/bookings/confirm.ts: names the supplier 'duffel'"]);
  });

  it('finds an optional-chained comparison, a renamed one and a kind', () => {
    expect(finds("if (deps.supplier?.name === 'duffel') hold();")).toHaveLength(1);
    expect(
      finds('const theirs = `duffel`;\nconst ours = s.name;\nif (ours === theirs) hold();'),
    ).toHaveLength(1);
    expect(finds("const remote = orders['kind'] === 'remote';")).toHaveLength(1);
    expect(finds("if (deps.supplier?.name === 'network') book();")).toHaveLength(1);
  });

  it('finds an import of an adapter, a network module, the wiring or the seam, but not of the port', () => {
    const code = [
      "import { duffelSupplier } from '../supply/duffel/adapter.ts';",
      "import type { InTableSupplier } from '../supply/port.ts';",
      "import { networkOffers } from '#shared/supply/network-offers.ts';",
      "export { confirming } from '#supplier/orders';",
      "const wiring = await import('../supply/wiring/local.ts');",
      "type Net = typeof import('../supply/network-orders.ts');",
    ].join('\n');

    expect(finds(code)).toEqual([
      'shared/bookings/confirm.ts: imports ../supply/duffel/adapter.ts',
      'shared/bookings/confirm.ts: imports #shared/supply/network-offers.ts',
      'shared/bookings/confirm.ts: imports #supplier/orders',
      'shared/bookings/confirm.ts: imports ../supply/wiring/local.ts',
      'shared/bookings/confirm.ts: imports ../supply/network-orders.ts',
    ]);
  });

  it('finds route code reading a remote call claim, which the entity may store', () => {
    const code = "if (current.hold_call && current['cancel_call']) wait();";

    expect(finds(code)).toEqual([
      'shared/bookings/confirm.ts: reads hold_call',
      'shared/bookings/confirm.ts: reads cancel_call',
    ]);
    expect(finds(code, 'shared/bookings/entity/booking-item.ts')).toEqual([]);
  });

  it('passes booking code that is given its flow', () => {
    const code = [
      "import type { OrdersSupplier } from '../supply/port.ts';",
      'export const cancel = (deps: { orderFlow: { cancel(): Promise<string> } }) => deps.orderFlow.cancel();',
      "const note = 'the network of airlines';",
    ].join('\n');

    expect(finds(code)).toEqual([]);
  });
});

describe('the supplier seam', () => {
  it('has booking code that never asks which supplier it has', () => {
    const findings = BOOKING_CODE.flatMap(sources).flatMap((file) =>
      seamFindings(file, readFileSync(file, 'utf8')),
    );

    expect(findings).toEqual([]);
  });

  it('reads no bundling switch anywhere: each bundle gets one wiring by its import condition', () => {
    const switched = ['shared', 'functions', 'infra']
      .flatMap(sources)
      .filter((file) => /\bBUNDLED_SUPPLIER\b/.test(readFileSync(file, 'utf8')));

    expect(switched).toEqual([]);
  });
});
