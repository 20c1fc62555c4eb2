import fc from 'fast-check';

/**
 * JSON Schema (the 2020-12 subset openapi.json uses) → fast-check arbitraries of VALID values. Schemas
 * are walked as plain JSON, so they are typed loosely.
 */
// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema is arbitrary JSON
export type Schema = Record<string, any>;

/** Follows `$ref` (local `#/…` pointers into `doc`) until a schema without one. */
export function deref(doc: Schema, schema: Schema | undefined): Schema {
  let current: Schema = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const { $ref, ...rest } = current;
    const target = pointer(doc, $ref);
    current = Object.keys(rest).length > 0 ? { allOf: [target, rest] } : target;
  }
  return current;
}

function pointer(doc: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $ref are supported: ${ref}`);
  let node: Schema | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    node = node?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  if (!node) throw new Error(`unresolved $ref ${ref}`);
  return node;
}

/**
 * One schema with `$ref` and `allOf` folded in: properties merged, `required` united, the first value
 * of any other keyword kept. Enough for generation and for reading a field's keywords; ajv stays the
 * judge of validity.
 */
export function flatten(doc: Schema, schema: Schema | undefined): Schema {
  const resolved = deref(doc, schema);
  if (!Array.isArray(resolved.allOf)) return resolved;
  const { allOf, ...own } = resolved;
  const merged: Schema = {};
  for (const part of [own, ...allOf.map((s: Schema) => flatten(doc, s))]) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') merged.properties = { ...value, ...merged.properties };
      else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...value])];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

/** The schema's alternatives (`oneOf`/`anyOf` branches, flattened), or the schema itself. */
export function branches(doc: Schema, schema: Schema | undefined): Schema[] {
  const flat = flatten(doc, schema);
  const alternatives = flat.oneOf ?? flat.anyOf;
  if (!Array.isArray(alternatives)) return [flat];
  const { oneOf: _o, anyOf: _a, ...rest } = flat;
  return alternatives.flatMap((branch: Schema) => branches(doc, { allOf: [rest, branch] }));
}

/** `type` as a list; inferred from `const`/`enum`/keywords when absent. */
export function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type;
  const sample = schema.const ?? schema.enum?.[0];
  if (sample !== undefined) return [sample === null ? 'null' : typeof sample];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** Code points, as JSON Schema counts string length. */
export const codePoints = (s: string) => [...s].length;

/** A pattern's RegExp: JSON Schema patterns are ECMA-262 with Unicode semantics. */
export const patternOf = (schema: Schema) =>
  typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;

const DAY = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoDateTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const around = (ms: number) => fc.integer({ min: ms - 3650 * DAY, max: ms + 330 * DAY });

/**
 * Built once per pattern: building a `stringMatching` arbitrary is costly (fast-check maps every
 * character the pattern allows), and was most of the fuzzer's CPU when built anew for every case.
 */
const matchingByPattern = new Map<string, fc.Arbitrary<string>>();

/** A string matching `pattern`; fast-check cannot generate lookaheads, so they are filtered for. */
function matching(regex: RegExp): fc.Arbitrary<string> {
  const key = `${regex.flags}/${regex.source}`;
  let arbitrary = matchingByPattern.get(key);
  if (!arbitrary) {
    try {
      arbitrary = fc.stringMatching(regex);
    } catch {
      const withoutLookarounds = regex.source.replace(/\(\?<?[=!](?:[^()\\]|\\.)*\)/g, '');
      arbitrary = fc.stringMatching(new RegExp(withoutLookarounds, 'u')).filter((s) => regex.test(s));
    }
    matchingByPattern.set(key, arbitrary);
  }
  return arbitrary;
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const now = Date.now();
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const fitsLength = (s: string) => codePoints(s) >= min && codePoints(s) <= max;
  const regex = patternOf(schema);
  let base: fc.Arbitrary<string>;
  if (schema.format === 'date') base = around(now).map(isoDate);
  else if (schema.format === 'date-time') base = around(now).map(isoDateTime);
  else if (schema.format === 'email') base = fc.emailAddress();
  // Web URLs with a path and a query; the pattern (webhook URLs: https) filters the scheme.
  else if (schema.format === 'uri') base = fc.webUrl({ withQueryParameters: true });
  else if (regex) base = matching(regex);
  // `binary` units are code points, the unit JSON Schema lengths count.
  else return fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, min + 24) });
  return base.filter((s) => fitsLength(s) && (!regex || regex.test(s)));
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = Math.max(schema.minimum ?? -1e6, schema.exclusiveMinimum ?? -Infinity, -1e9);
  const hi = Math.min(schema.maximum ?? 1e6, schema.exclusiveMaximum ?? Infinity, 1e9);
  const inRange = (n: number) =>
    !(n === schema.exclusiveMinimum || n === schema.exclusiveMaximum) && n >= lo && n <= hi;
  const step = schema.multipleOf ?? (integer ? 1 : undefined);
  if (step === undefined) return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  // Whole multiples, then rounded to the step's decimals so that 0.01 × 7 is written 0.07.
  const decimals = String(step).split('.')[1]?.length ?? 0;
  return fc
    .integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) })
    .map((k) => Number((k * step).toFixed(decimals)))
    .filter(inRange);
}

/**
 * Keys whose mere presence fails `not` (`not: {required: [k]}`, or an `anyOf` of such): the form the
 * document's alternatives take (search: slices, or the single trip's fields). Other `not`s are ignored.
 */
function forbiddenKeys(not: Schema | undefined): Set<string> {
  if (!not || typeof not !== 'object') return new Set();
  const parts: Schema[] = Array.isArray(not.anyOf) ? not.anyOf : [not];
  return new Set(
    parts.flatMap((part) =>
      Array.isArray(part.required) && part.required.length === 1 && Object.keys(part).length === 1
        ? part.required
        : [],
    ),
  );
}

/** An arbitrary of values `schema` accepts (resolved against `doc`). */
export function validArbitrary(doc: Schema, schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = branches(doc, schema);
  if (alternatives.length > 1) return fc.oneof(...alternatives.map((b) => validArbitrary(doc, b, depth)));
  const flat = alternatives[0] ?? {};
  if ('const' in flat) return fc.constant(flat.const);
  if (Array.isArray(flat.enum)) return fc.constantFrom(...flat.enum);
  const types = typesOf(flat);
  if (types.length === 0) return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 1 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArbitrary(flat);
        case 'integer':
          return numberArbitrary(flat, true);
        case 'number':
          return numberArbitrary(flat, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const minLength = flat.minItems ?? 0;
          const maxLength = Math.min(flat.maxItems ?? minLength + 3, minLength + 3);
          return fc.array(validArbitrary(doc, flat.items, depth + 1), { minLength, maxLength });
        }
        default: {
          const properties: Record<string, Schema> = flat.properties ?? {};
          const forbidden = forbiddenKeys(flat.not);
          const model: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [key, sub] of Object.entries(properties))
            if (!forbidden.has(key)) model[key] = validArbitrary(doc, sub, depth + 1);
          const requiredKeys = (flat.required ?? []).filter((k: string) => k in properties);
          return fc.record(model, { requiredKeys });
        }
      }
    }),
  );
}
