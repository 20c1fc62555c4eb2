import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every TypeScript file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The relative imports of each file of `shared/` (type-only ones too: they are arrows all the same). */
const graph = new Map(
  sources('shared').map((file) => [
    file,
    [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) =>
      normalize(join(dirname(file), m[1] ?? '')),
    ),
  ]),
);

describe('architecture of shared/', () => {
  it('has no arrow from a domain folder up into http/', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      /^shared\/(agency|auth|flights|bookings|notify|db|events)\//.test(file)
        ? imports.filter((target) => target.startsWith('shared/http/')).map((target) => `${file} → ${target}`)
        : [],
    );

    expect(upward).toEqual([]);
  });

  it('has no import circle', () => {
    const circles: string[] = [];
    const visit = (file: string, path: string[]) => {
      for (const target of graph.get(file) ?? []) {
        const at = path.indexOf(target);
        if (at >= 0) circles.push([...path.slice(at), target].join(' → '));
        else visit(target, [...path, target]);
      }
    };
    for (const file of graph.keys()) visit(file, [file]);

    expect(circles).toEqual([]);
  });

  it('writes each key format of the table once, in the module of its item', () => {
    // Key prefixes (`BOOKING#`) and sort keys (`sk: 'PROFILE'`) as the code writes them, comments aside.
    const writers = new Map<string, Set<string>>();
    for (const file of graph.keys()) {
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
    const home = /^shared\/bookings\/booking(-item|-updates|-calls|-writes|-ends)?\.ts$/;
    const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const keyed = [...graph.keys()].filter((file) => !home.test(file) && /\bbookingKey\b/.test(code(file)));
    const spelled = [...graph.keys()].filter(
      (file) =>
        file.startsWith('shared/bookings/') &&
        !home.test(file) &&
        !file.endsWith('-item.ts') &&
        /\b(UpdateExpression|ConditionExpression|Key):/.test(code(file)),
    );

    expect(keyed).toEqual([]);
    expect(spelled).toEqual([]);
  });

  it('has no branch on the supplier in bookings/: each kind is paired with its flow where the adapter is chosen', () => {
    // Which supplier a stage has is asked in shared/order-context.ts only (bookings/flow.ts): not by the
    // bundling switch, a supplier part's kind, nor its name.
    const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const branches = [...graph.keys()]
      .filter((file) => file.startsWith('shared/bookings/'))
      .flatMap((file) =>
        [
          ...code(file).matchAll(
            /BUNDLED_SUPPLIER|\.kind\s*[!=]==?\s*'(in-table|remote)'|\b(supplier|orders|ordering)\.(kind|name)\s*[!=]==?/g,
          ),
        ].map((m) => `${file}: ${m[0]}`),
      );

    expect(branches).toEqual([]);
  });

  it('keeps every file under 250 lines but the data tables', () => {
    // The route table is plain data too: one entry per route, nothing else (shared/routes.ts).
    const long = [...graph.keys()]
      .filter((file) => !/(network|airport-data|world-airport-data|shared\/routes)\.ts$/.test(file))
      .map((file) => [file, readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 250);

    expect(long).toEqual([]);
  });
});
