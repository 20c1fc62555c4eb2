import fc from 'fast-check';
import { flatten, patternOf, type Schema, typesOf, validArbitrary } from './json-schema.ts';

/** A JSON number written verbatim into the body text (`1e2`, `-0`, `412.401`), which JSON.stringify cannot. */
export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toJSON() {
    return `\u0000raw:${this.text}\u0000`;
  }
}

/** The body text: JSON, with every Raw spliced in as written. */
export function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000raw:([^"\\]*)\\u0000"/g, '$1');
}

/** Marks a property or element as removed. */
export const REMOVE = Symbol('remove');

export type Segment = string | number;

/** What the fuzzer sends: a body value (or raw text) and headers. */
export interface RequestSpec {
  body: unknown;
  /** When set, sent instead of `serialize(body)`: text that is not JSON at all. */
  rawBody?: string;
  headers: Record<string, string>;
}

export interface Mutation {
  /** Human-readable: `passengers.0.born_on: impossible date`. */
  label: string;
  /** True when the mutation re-spells an id or token the server issued: §1 makes it an unknown id. */
  respelled?: 'token' | 'id';
  apply(request: RequestSpec): RequestSpec;
}

/** Everything the server issued that a mutation may re-spell, and every enum value of the document. */
export interface MutationContext {
  doc: Schema;
  issued: ReadonlySet<string>;
  enumValues: readonly string[];
  /** Header names that carry an issued credential. */
  authenticated: boolean;
  /** The operation's header parameters (name → schema). */
  headerParameters: Record<string, Schema>;
}

interface Node {
  path: Segment[];
  value: unknown;
  schema: Schema;
}

/** Every node of `value`, each with its (flattened, branch-merged) schema. */
export function nodes(doc: Schema, value: unknown, schema: Schema | undefined, path: Segment[] = []): Node[] {
  const flat = mergeBranches(doc, schema);
  const here: Node = { path, value, schema: flat };
  if (Array.isArray(value)) {
    return [here, ...value.flatMap((item, i) => nodes(doc, item, flat.items, [...path, i]))];
  }
  if (value && typeof value === 'object') {
    const properties: Record<string, Schema> = flat.properties ?? {};
    const extra = typeof flat.additionalProperties === 'object' ? flat.additionalProperties : {};
    return [
      here,
      ...Object.entries(value).flatMap(([key, child]) =>
        nodes(doc, child, properties[key] ?? extra, [...path, key]),
      ),
    ];
  }
  return [here];
}

/** The keywords of every `oneOf`/`anyOf` branch in one schema, so a leaf's mutations see them all. */
function mergeBranches(doc: Schema, schema: Schema | undefined): Schema {
  const flat = flatten(doc, schema);
  const alternatives: Schema[] | undefined = flat.oneOf ?? flat.anyOf;
  if (!Array.isArray(alternatives)) return flat;
  const merged: Schema = { ...flat };
  for (const branch of alternatives.map((b) => mergeBranches(doc, b))) {
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'const') merged.enum = [...(merged.enum ?? []), value];
      else if (key === 'enum') merged.enum = [...(merged.enum ?? []), ...value];
      else if (key === 'type') merged.type = [...new Set([...typesOf(merged), ...[value].flat()])];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

export function setAt(body: unknown, path: Segment[], replacement: unknown): unknown {
  if (path.length === 0) return replacement === REMOVE ? undefined : replacement;
  const [head, ...rest] = path as [Segment, ...Segment[]];
  if (Array.isArray(body)) {
    const copy = [...body];
    if (rest.length === 0 && replacement === REMOVE) copy.splice(Number(head), 1);
    else copy[Number(head)] = setAt(copy[Number(head)], rest, replacement);
    return copy;
  }
  const copy = { ...(body as Record<string, unknown>) };
  if (rest.length === 0 && replacement === REMOVE) delete copy[head];
  else copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

const show = (path: Segment[]) => (path.length === 0 ? '(body)' : path.join('.'));

// ---------------------------------------------------------------------------------------------------
// Re-spellings of an issued id (docs/API.md §1: "padding added, another base64 alphabet, changed unused
// bits, surrounding spaces" are all unknown ids).

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The last base64url character with its unused low bits changed: the same bytes to a lax decoder. */
function changeUnusedBits(segment: string): string | undefined {
  const unused = { 2: 4, 3: 2 }[segment.length % 4];
  const last = B64URL.indexOf(segment.at(-1) ?? '');
  if (!unused || last < 0) return undefined;
  return segment.slice(0, -1) + B64URL[last ^ 1];
}

/** Every re-spelling of `id` that differs from it. */
export function respellings(id: string): { label: string; value: string }[] {
  const segments = id.split('.');
  const lastSegment = segments.at(-1) ?? '';
  const bits = changeUnusedBits(lastSegment);
  const candidates = [
    { label: 'padding = appended', value: `${id}=` },
    { label: 'padding == appended', value: `${id}==` },
    { label: '. appended', value: `${id}.` },
    { label: 'space appended', value: `${id} ` },
    { label: 'surrounding spaces', value: ` ${id} ` },
    { label: '+/ alphabet', value: id.replaceAll('-', '+').replaceAll('_', '/') },
    { label: 'lower case', value: id.toLowerCase() },
    ...(bits ? [{ label: 'unused bits changed', value: [...segments.slice(0, -1), bits].join('.') }] : []),
    // Each segment of a dotted token padded: JWT libraries that decode leniently accept it.
    ...(segments.length > 1
      ? [{ label: 'segments padded', value: segments.map((s) => `${s}=`).join('.') }]
      : []),
  ];
  return candidates.filter((c) => c.value !== id);
}

// ---------------------------------------------------------------------------------------------------
// Leaf values.

const pad = (n: number) => (v: number) => String(v).padStart(n, '0');

/** Dates of the right shape that are not real, or are far away; keeps `like`'s time part. */
function impossibleDates(like: string): fc.Arbitrary<string> {
  const suffix = /^\d{4}-\d{2}-\d{2}(.*)$/s.exec(like)?.[1] ?? '';
  const year = new Date().getUTCFullYear();
  const date = fc
    .record({
      y: fc.oneof(fc.constantFrom(0, 1900, year, year + 1, 9999), fc.integer({ min: 0, max: 9999 })),
      m: fc.integer({ min: 0, max: 13 }),
      d: fc.integer({ min: 0, max: 32 }),
    })
    .map(({ y, m, d }) => `${pad(4)(y)}-${pad(2)(m)}-${pad(2)(d)}`);
  // February 29th of a year that has none, and the day after each month's last.
  const calendarEdges = fc.integer({ min: year - 1, max: year + 2 }).chain((y) =>
    fc.integer({ min: 1, max: 12 }).map((m) => {
      const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
      return `${y}-${pad(2)(m)}-${pad(2)(m === 2 && days === 28 ? 29 : days + 1)}`;
    }),
  );
  const time = fc.oneof(
    fc.constant(suffix),
    fc
      .record({
        h: fc.integer({ min: 0, max: 25 }),
        mi: fc.integer({ min: 0, max: 61 }),
        s: fc.integer({ min: 0, max: 61 }),
      })
      .map(({ h, mi, s }) => `T${pad(2)(h)}:${pad(2)(mi)}:${pad(2)(s)}Z`),
  );
  return fc
    .tuple(fc.oneof(date, calendarEdges, fc.constantFrom('1900-01-01', '9999-12-31')), time)
    .map(([d, t]) => d + t);
}

/** A string of exactly `length` code points drawn from `source`'s code points. */
const ofLength = (source: string[], length: number) =>
  Array.from({ length }, (_, i) => source[i % source.length] ?? 'a').join('');

const astralCache = new Map<string, string[]>();
/** Astral code points (two UTF-16 units each) that `regex` accepts on their own, found by scanning. */
function astralMatches(regex: RegExp | undefined): string[] {
  const key = regex?.source ?? '';
  let found = astralCache.get(key);
  if (!found) {
    found = [];
    for (let cp = 0x10000; cp < 0x20000 && found.length < 64; cp++) {
      const ch = String.fromCodePoint(cp);
      if (!regex || regex.test(ch)) found.push(ch);
    }
    astralCache.set(key, found);
  }
  return found;
}

/** Letters with a canonical decomposition that `regex` accepts: `é` as `e` + U+0301 once sent NFD. */
function decomposable(regex: RegExp | undefined): string[] {
  const found: string[] = [];
  for (let cp = 0xc0; cp < 0x250; cp++) {
    const ch = String.fromCodePoint(cp);
    if (ch.normalize('NFD') !== ch && (!regex || regex.test(ch))) found.push(ch);
  }
  return found;
}

/** Length limits of a string schema: minLength/maxLength, and a pattern's trailing `{m,n}`. */
function lengthLimits(schema: Schema): number[] {
  const limits = [schema.minLength, schema.maxLength].filter((n): n is number => typeof n === 'number');
  const quantifier = /\{(\d+),(\d+)\}\$?$/.exec(schema.pattern ?? '');
  if (quantifier) limits.push(Number(quantifier[1]), Number(quantifier[2]));
  return [...new Set(limits)];
}

type Replacement = { label: string; value: unknown; respelled?: 'id' };

function stringReplacements(node: Node, ctx: MutationContext): fc.Arbitrary<Replacement>[] {
  const v = node.value as string;
  const { schema } = node;
  const regex = patternOf(schema);
  const options: fc.Arbitrary<Replacement>[] = [];
  const fixed = (label: string, value: unknown) => fc.constant<Replacement>({ label, value });

  // Limits ±1 in code points, in BMP characters, astral ones (2 UTF-16 units) and NFD-sent accents.
  const source = [...v].length > 0 ? [...v] : ['a'];
  const astral = astralMatches(regex);
  const accented = decomposable(regex);
  for (const limit of lengthLimits(schema)) {
    for (const length of [limit - 1, limit, limit + 1].filter((n) => n >= 0 && n < 70_000)) {
      options.push(fixed(`${length} code points`, ofLength(source, length)));
      if (astral.length > 0) {
        options.push(
          fc
            .shuffledSubarray(astral, { minLength: 1, maxLength: 4 })
            .map((chars) => ({ label: `${length} astral code points`, value: ofLength(chars, length) })),
        );
      }
      if (accented.length > 0) {
        options.push(
          fc.shuffledSubarray(accented, { minLength: 1, maxLength: 4 }).map((chars) => ({
            label: `${length} accented characters sent NFD`,
            value: ofLength(chars, length).normalize('NFD'),
          })),
        );
      }
    }
  }
  // Other Unicode normal forms of the value itself, and a combining mark added.
  for (const form of ['NFD', 'NFKD', 'NFKC'] as const) {
    if (v.normalize(form) !== v) options.push(fixed(form, v.normalize(form)));
  }
  options.push(fixed('combining mark appended', `${v}\u0301`));
  options.push(
    fixed('surrounding spaces', ` ${v} `),
    fixed('trailing NUL', `${v}\u0000`),
    fixed('empty', ''),
  );
  if (v.toUpperCase() !== v) options.push(fixed('upper case', v.toUpperCase()));
  if (v.toLowerCase() !== v) options.push(fixed('lower case', v.toLowerCase()));

  if (schema.format === 'date' || schema.format === 'date-time' || /^\d{4}-\d{2}-\d{2}/.test(v)) {
    options.push(impossibleDates(v).map((value) => ({ label: 'impossible or far date', value })));
  }
  // Every enum's neighbours, and the values other fields' enums allow.
  const enumValues: unknown[] = schema.enum ?? [];
  for (const e of enumValues.filter((x): x is string => typeof x === 'string')) {
    for (const [label, value] of [
      ['enum lower case', e.toLowerCase()],
      ['enum upper case', e.toUpperCase()],
      ['enum trailing space', `${e} `],
      ['enum truncated', e.slice(0, -1)],
      ['enum NFD-padded', `${e}\u0301`],
    ] as const) {
      if (!enumValues.includes(value)) options.push(fixed(label, value));
    }
  }
  if (enumValues.length > 0 && ctx.enumValues.length > 0) {
    options.push(
      fc.constantFrom(...ctx.enumValues).map((value) => ({ label: "another field's enum value", value })),
    );
  }
  if (ctx.issued.has(v)) {
    // A PNR is found in any letter case (§4.3): its lower case is the same PNR, not a re-spelling.
    const caseless = node.path.at(-1) === 'pnr';
    for (const r of respellings(v).filter((r) => !(caseless && r.value.toUpperCase() === v)))
      options.push(fc.constant<Replacement>({ ...r, label: `id ${r.label}`, respelled: 'id' }));
  }
  // Another schema-valid value (for an id: a well-formed one the server never issued).
  options.push(validArbitrary(ctx.doc, schema).map((value) => ({ label: 'other valid value', value })));
  return options;
}

function numberReplacements(node: Node): fc.Arbitrary<Replacement>[] {
  const v = node.value as number;
  const { schema } = node;
  const integer = typesOf(schema).includes('integer') && !typesOf(schema).includes('number');
  const step = integer ? 1 : 0.01;
  const fixed = (label: string, value: unknown) => fc.constant<Replacement>({ label, value });
  const options: fc.Arbitrary<Replacement>[] = [];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const limit = schema[key];
    if (typeof limit !== 'number' || !Number.isSafeInteger(Math.round(limit))) continue;
    for (const n of [limit - step, limit, limit + step])
      options.push(fixed(`${key} ${n}`, Number(n.toFixed(2))));
  }
  const two = v.toFixed(2);
  options.push(
    fc.integer({ min: 1, max: 9 }).map((d) => ({ label: '3 decimals', value: new Raw(`${two}${d}`) })),
    fixed('negative zero', new Raw('-0')),
    fixed('negative zero with decimals', new Raw('-0.00')),
    fixed('exponent form', new Raw(v.toExponential())),
    fixed('exponent form, hundredths', new Raw(`${Math.round(v * 100)}e-2`)),
    fixed('exponent form 1e2', new Raw('1e2')),
    fixed('upper-case exponent', new Raw(`${v}E0`)),
    fixed('overflowing exponent', new Raw('1e400')),
    fixed('beyond 2^53', new Raw('9007199254740993')),
    fixed('trailing .0', new Raw(`${Math.trunc(v)}.0`)),
    fixed('half', v + 0.5),
    fixed('negated', -v - 1),
    fixed('as string', String(v)),
  );
  if (schema.multipleOf) options.push(fixed('off the multipleOf grid', v + schema.multipleOf / 10));
  return options;
}

/** Replacements for one node, derived from its schema keywords and its current value. */
function replacementsFor(node: Node, ctx: MutationContext): fc.Arbitrary<Replacement> {
  const fixed = (label: string, value: unknown) => fc.constant<Replacement>({ label, value });
  const { value, schema } = node;
  const options: fc.Arbitrary<Replacement>[] = [fixed('null', null)];
  if (typeof value === 'string') {
    options.push(
      ...stringReplacements(node, ctx),
      fixed('number instead', 0),
      fixed('array instead', [value]),
    );
  } else if (typeof value === 'number') {
    options.push(...numberReplacements(node), fixed('boolean instead', true));
  } else if (typeof value === 'boolean') {
    options.push(fixed('string instead', String(value)), fixed('number instead', Number(value)));
  } else if (Array.isArray(value)) {
    const min = schema.minItems ?? 0;
    const max = schema.maxItems;
    options.push(fixed('empty array', []), fixed('object instead', {}));
    if (value.length > 0) {
      options.push(
        fixed('one element fewer', value.slice(0, -1)),
        fixed('first element repeated', [...value, value[0]]),
      );
      if (min > 1) options.push(fixed(`minItems-1 = ${min - 1}`, value.slice(0, min - 1)));
      if (typeof max === 'number' && max < 1000) {
        options.push(
          fixed(
            `maxItems+1 = ${max + 1}`,
            Array.from({ length: max + 1 }, (_, i) => value[i % value.length]),
          ),
        );
      }
    }
  } else if (value && typeof value === 'object') {
    options.push(
      fixed('array instead', [value]),
      fixed('string instead', 'x'),
      fc.string({ minLength: 1, maxLength: 12 }).chain((key) =>
        fc.jsonValue({ maxDepth: 1 }).map((extra) => ({
          label: `unknown field ${JSON.stringify(key)}`,
          value: { ...value, [key]: extra },
        })),
      ),
    );
  }
  // Wrong types for a node whose schema has one, and a schema-valid value of any shape.
  if (typesOf(schema).length > 0 && typeof value !== 'object') options.push(fixed('object instead', {}));
  return fc.oneof(...options);
}

/** Mutations of the body: one node replaced, or one required property removed. */
function bodyMutation(
  body: unknown,
  schema: Schema,
  ctx: MutationContext,
): fc.Arbitrary<Mutation> | undefined {
  const all = nodes(ctx.doc, body, schema);
  const replace = fc.constantFrom(...all).chain((node) =>
    replacementsFor(node, ctx).map(
      (r): Mutation => ({
        label: `${show(node.path)}: ${r.label}`,
        respelled: r.respelled,
        apply: (request) => ({ ...request, body: setAt(request.body, node.path, r.value) }),
      }),
    ),
  );
  const removable = all.flatMap((node) =>
    node.value && typeof node.value === 'object' && !Array.isArray(node.value)
      ? (node.schema.required ?? [])
          .filter((key: string) => key in (node.value as object))
          .map((key: string) => [...node.path, key])
      : [],
  );
  const remove =
    removable.length > 0
      ? fc.constantFrom(...removable).map(
          (path): Mutation => ({
            label: `${show(path)}: required field removed`,
            apply: (request) => ({ ...request, body: setAt(request.body, path, REMOVE) }),
          }),
        )
      : undefined;
  return remove ? fc.oneof({ arbitrary: replace, weight: 6 }, { arbitrary: remove, weight: 1 }) : replace;
}

/** Bodies that are not a JSON object, or too big. */
function rawBodyMutation(body: unknown): fc.Arbitrary<Mutation> {
  const text = serialize(body);
  const raw = (label: string, rawBody: string): Mutation => ({
    label: `body: ${label}`,
    apply: (r) => ({ ...r, rawBody }),
  });
  return fc.oneof(
    fc.constantFrom(
      raw('truncated JSON', text.slice(0, Math.max(1, text.length - 1))),
      raw('JSON null', 'null'),
      raw('JSON array', `[${text}]`),
      raw('JSON string', JSON.stringify(text)),
      raw('empty', ''),
      raw('byte order mark', `\uFEFF${text}`),
      raw('duplicate keys', text.replace(/^\{/, `{${text.slice(1, -1)}${text.length > 2 ? ',' : ''}`)),
      raw(
        'over 64 KiB',
        text.replace(/^\{/, `{"padding":"${'x'.repeat(66_000)}"${text.length > 2 ? ',' : ''}`),
      ),
    ),
    fc.string({ unit: 'binary', maxLength: 24 }).map((s) => raw('arbitrary text', s)),
  );
}

/** Mutations of the credential, the Content-Type and the operation's header parameters. */
function headerMutation(request: RequestSpec, ctx: MutationContext): fc.Arbitrary<Mutation> {
  const header = (
    label: string,
    change: (h: Record<string, string>) => void,
    respelled?: 'token',
  ): Mutation => ({
    label: `header: ${label}`,
    respelled,
    apply: (r) => {
      const headers = { ...r.headers };
      change(headers);
      return { ...r, headers };
    },
  });
  const options: Mutation[] = [
    header('no Content-Type', (h) => delete h['content-type']),
    header('text/plain', (h) => (h['content-type'] = 'text/plain')),
    header('charset=utf-8', (h) => (h['content-type'] = 'application/json; charset=utf-8')),
    header('upper-case media type', (h) => (h['content-type'] = 'Application/JSON;charset=UTF-8')),
    header('form encoded', (h) => (h['content-type'] = 'application/x-www-form-urlencoded')),
  ];
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (ctx.authenticated && token) {
    options.push(
      header('no credentials', (h) => delete h.authorization),
      header('session cookie instead of bearer', (h) => {
        delete h.authorization;
        h.cookie = `__Host-session=${token}`;
      }),
      header('bearer scheme in lower case', (h) => (h.authorization = `bearer ${token}`)),
      header('token without scheme', (h) => (h.authorization = token)),
      // HTTP strips a header value's surrounding whitespace, so only re-spellings that survive it.
      ...respellings(token)
        .filter((r) => r.value.trim() !== token)
        .flatMap((r) => [
          header(`bearer token ${r.label}`, (h) => (h.authorization = `Bearer ${r.value}`), 'token'),
          header(
            `cookie token ${r.label}`,
            (h) => {
              delete h.authorization;
              h.cookie = `__Host-session=${r.value}`;
            },
            'token',
          ),
        ]),
    );
  }
  const parameters = Object.entries(ctx.headerParameters);
  const parameterMutations = parameters.map(([name, schema]) =>
    fc
      .oneof(
        ...[0, 1, schema.maxLength ?? 255, (schema.maxLength ?? 255) + 1].map((length) =>
          fc
            .string({
              unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
              minLength: length,
              maxLength: length,
            })
            .map((value) => ({ label: `${length} chars`, value })),
        ),
        // Bytes outside printable ASCII that HTTP still carries (tab inside, Latin-1).
        fc.constantFrom(
          { label: 'tab inside', value: 'key\tvalue' },
          { label: 'Latin-1 byte', value: 'clé' },
        ),
      )
      .map(({ label, value }) => header(`${name} ${label}`, (h) => (h[name.toLowerCase()] = value))),
  );
  return fc.oneof(fc.constantFrom(...options), ...parameterMutations);
}

/**
 * One near-valid request from a valid one: a body node mutated, the body text broken, or a header
 * changed. Weighted towards the body, where the schema has the most to say.
 */
export function mutationArbitrary(
  request: RequestSpec,
  schema: Schema,
  ctx: MutationContext,
): fc.Arbitrary<Mutation> {
  const body = bodyMutation(request.body, schema, ctx);
  return fc.oneof(
    ...(body ? [{ arbitrary: body, weight: 12 }] : []),
    { arbitrary: rawBodyMutation(request.body), weight: 1 },
    { arbitrary: headerMutation(request, ctx), weight: 3 },
  );
}

/** Every string enum value the document lists, for "another field's enum value". */
export function documentEnumValues(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) {
          for (const e of value) if (typeof e === 'string') found.add(e);
        } else walk(value);
      }
    }
  };
  walk(doc);
  return [...found].sort();
}
