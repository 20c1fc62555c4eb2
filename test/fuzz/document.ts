import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { flatten, type Schema } from './json-schema.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

export interface Operation {
  method: string;
  path: string;
  id: string;
  /** The requestBody's application/json schema ({} when the document gives none). */
  requestSchema: Schema;
  /** Whether the operation needs a credential (a non-empty `security`). */
  authenticated: boolean;
  /** Header parameters, lower-cased name → schema. */
  headerParameters: Record<string, Schema>;
  /** Every description the document gives the operation and its request schema, for prose rules. */
  prose: string;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The OpenAPI document as the server serves it, with ajv compiled against it. */
export class ServedDocument {
  readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  readonly doc: Schema;

  constructor(doc: Schema) {
    this.doc = doc;
    // multipleOfPrecision: 19.99 is a multiple of 0.01 although 19.99 / 0.01 is 1998.9999… in floats;
    // 1e-5 holds for every 2-decimal amount up to 99,999,999.99 (1e-9 refused 72,822,931.77).
    this.ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 5 });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'served');
    this.operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Schema)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]: [string, Schema]) => {
          const requestSchema = op.requestBody?.content?.['application/json']?.schema ?? {};
          const headerParameters: Record<string, Schema> = {};
          for (const p of op.parameters ?? []) {
            const parameter = flatten(doc, p);
            if (parameter.in === 'header')
              headerParameters[parameter.name.toLowerCase()] = parameter.schema ?? {};
          }
          const security = op.security ?? doc.security ?? [];
          return {
            method,
            path,
            id: op.operationId ?? `${method} ${path}`,
            requestSchema,
            authenticated: security.length > 0 && !security.some((s: Schema) => Object.keys(s).length === 0),
            headerParameters,
            prose: [op.summary, op.description, ...descriptions(doc, requestSchema)]
              .filter(Boolean)
              .join('\n'),
          };
        }),
    );
  }

  static async fetch(baseUrl: string): Promise<ServedDocument> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new ServedDocument((await response.json()) as Schema);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `served#/${ref}` });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** ajv's errors for `body` against the operation's request schema; empty when the document calls it valid. */
  requestErrors(op: Operation, body: unknown): string[] {
    const ref = pointer('paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema');
    const requestBody = this.doc.paths[op.path][op.method].requestBody;
    if (!requestBody?.content?.['application/json']) return [];
    const validate = this.validator(ref);
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
  }

  headerErrors(op: Operation, headers: Record<string, string>): string[] {
    return Object.entries(op.headerParameters).flatMap(([name, schema]) => {
      const value = headers[name];
      if (value === undefined) return [];
      const validate = this.ajv.compile(schema);
      return validate(value) ? [] : [`header ${name} ${this.ajv.errorsText(validate.errors)}`];
    });
  }

  /**
   * Why the response breaks the document (undefined when it does not): its status must be listed for
   * the route, its body must match that status's schema, and required headers must be present.
   */
  responseProblem(op: Operation, status: number, body: unknown, headers: Headers): string | undefined {
    const responses = this.doc.paths[op.path][op.method].responses ?? {};
    const key =
      String(status) in responses
        ? String(status)
        : `${String(status)[0]}XX` in responses
          ? `${String(status)[0]}XX`
          : 'default';
    const response = responses[key] && flatten(this.doc, responses[key]);
    if (!response) return `status ${status} is not documented for ${op.method.toUpperCase()} ${op.path}`;
    for (const [name, header] of Object.entries<Schema>(response.headers ?? {})) {
      if (flatten(this.doc, header).required && !headers.has(name)) return `required header ${name} missing`;
    }
    if (!response.content?.['application/json']) return undefined;
    if (body === undefined) return 'body is not JSON';
    const ref = pointer(
      'paths',
      op.path,
      op.method,
      'responses',
      key,
      'content',
      'application/json',
      'schema',
    );
    const validate = this.validator(ref);
    return validate(body)
      ? undefined
      : `body does not match the ${key} schema: ${this.ajv.errorsText(validate.errors)}`;
  }
}

/** Every `description` under `schema` (following $ref), each once. */
function descriptions(doc: Schema, schema: Schema): string[] {
  const found: string[] = [];
  const seen = new Set<Schema>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node as Schema)) return;
    seen.add(node as Schema);
    const s = node as Schema;
    if (typeof s.description === 'string') found.push(s.description);
    if (typeof s.$ref === 'string') walk(flatten(doc, { $ref: s.$ref }));
    for (const [key, value] of Object.entries(s)) if (key !== '$ref' && key !== 'examples') walk(value);
  };
  walk(schema);
  return found;
}

const isCalendarDate = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  // Year 0000 is a real ISO 8601 (proleptic) year; 0000-00-00 fails on its month and day.
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
};

/**
 * Rules the document states only in prose (cross-field or relative to today), which JSON Schema cannot
 * express: a schema-valid request refused with 400 on such a field is not a finding. Each entry is
 * active only while the served document still states the rule (`prose` must match one of the
 * operation's descriptions), so the list cannot excuse a rule the document dropped.
 */
interface Exemption {
  operation: string;
  detail: RegExp;
  prose: RegExp;
  when?: (body: Schema, detailPath: string) => boolean;
}

/** Decimal places of a number as JSON writes it, judged here apart from the service's own code. */
function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field
const at = (body: any, path: string): unknown => path.split('.').reduce((node, key) => node?.[key], body);

export const EXEMPTIONS: readonly Exemption[] = [
  // "IATA airport code known to Open Travel Data": an unknown but well-formed code.
  { operation: 'search', detail: /^(origin|destination)$/, prose: /known to Open Travel Data/i },
  // "From today at the origin to 330 days ahead.": relative to today. Only for real calendar dates:
  // an impossible date (2026-13-01) is something a pattern can and must refuse.
  {
    operation: 'search',
    detail: /^(departure_date|return_date)$/,
    prose: /today .*\d+ days ahead/i,
    when: (body, path) => typeof at(body, path) === 'string' && isCalendarDate(at(body, path) as string),
  },
  // Each journey "as a one-way search": a known airport, origin ≠ destination.
  { operation: 'search', detail: /^slices\.\d+\.(origin|destination)$/, prose: /known to Open Travel Data/i },
  // Each journey's date relative to today at its origin, and "in date order".
  {
    operation: 'search',
    detail: /^slices\.\d+\.departure_date$/,
    prose: /in date order/i,
    when: (body, path) =>
      typeof at(body, path) === 'string' && isCalendarDate(String(at(body, path)).slice(0, 10)),
  },
  // "Never the previous journey again on the same day": a rule across two journeys.
  {
    operation: 'search',
    detail: /^slices\.\d+$/,
    prose: /never the previous journey again on the same day/i,
  },
  // Change-search: known airports, a day relative to today at the origin, and each journey index once.
  {
    operation: 'bookingChangeSearch',
    detail: /^journeys\.\d+\.(origin|destination)$/,
    prose: /known to Open Travel Data/i,
  },
  {
    operation: 'bookingChangeSearch',
    detail: /^journeys\.\d+\.departure_date$/,
    prose: /today .*\d+ days ahead/i,
    when: (body, path) => typeof at(body, path) === 'string' && isCalendarDate(at(body, path) as string),
  },
  { operation: 'bookingChangeSearch', detail: /^journeys$/, prose: /each index once/i },
  // "Aged 2-11; adults + children at most 9": a sum of two fields.
  { operation: 'search', detail: /^(adults|children)$/, prose: /adults \+ children at most 9/i },
  // "Under 2, on an adult’s lap; at most one per adult": infants ≤ adults.
  { operation: 'search', detail: /^(infants|adults)$/, prose: /at most one per adult/i },
  // "Books the offer for the passengers searched": the party must be the searched counts.
  { operation: 'bookingCreate', detail: /^passengers$/, prose: /passengers searched/i },
  // Age on the first departure date must fit pax_type: a rule across born_on, pax_type and the offer.
  {
    operation: 'bookingCreate',
    detail: /^passengers\.\d+\.(born_on|pax_type)$/,
    prose: /(age|aged) .*(ADULT|CHILD|INFANT|pax_type)|in the past/i,
    when: (body, path) => {
      const born = at(body, path.replace(/pax_type$/, 'born_on'));
      return typeof born === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(born) && isCalendarDate(born);
    },
  },
  // "Major currency units, at most 2 decimals": the document's multipleOf 0.01, which ajv judges with a
  // tolerance of 1e-5 (multipleOfPrecision), so an amount a ten-millionth off a cent passes it. Only
  // for amounts with 3+ decimals as JSON writes them.
  ...['bookingCreate', 'bookingConfirm', 'bookingChange'].map((operation) => ({
    operation,
    detail: /^(total_price|flight_details\.total_price|change_total\.amount)$/,
    prose: /at most 2 decimals/i,
    when: (body: Schema, path: string) =>
      typeof at(body, path) === 'number' && decimalPlaces(at(body, path) as number) > 2,
  })),
  // "Phone numbers only in the countries this service texts, never premium-rate …": the stage's countries
  // and the ranges of shared/phone-ranges.ts, which no pattern states.
  {
    operation: 'agencyAgentsCreate',
    detail: /^identifier$/,
    prose: /countries this service texts.*premium-rate/i,
    when: (body) => ['PHONE', 'SMS'].includes(String(at(body, 'type'))),
  },
  // "Not the operator’s name, Operator (CLI), however spelled": judged here by its letters alone.
  ...['agencyAgentsCreate', 'agencyAgentsUpdate'].map((operation) => ({
    operation,
    detail: /^name$/,
    prose: /not the operator’s name/i,
    when: (body: Schema) =>
      /^operator(cli)?$/.test(
        String(at(body, 'name'))
          .normalize('NFKC')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]/gu, ''),
      ),
  })),
  // "https://, … no credentials; it must resolve to public addresses only": what a URL's host resolves
  // to is known only by asking DNS, and the scheme and credential rules are stated beside it.
  {
    operation: 'agencyWebhooksCreate',
    detail: /^url$/,
    prose: /resolve to public addresses only/i,
  },
  // departure_to "on or after departure_from": a rule across two fields.
  { operation: 'bookingList', detail: /^departure_to$/, prose: /on or after departure_from/i },
  // "A meta.next_cursor this API returned, exactly as returned": only the service knows what it issued.
  ...['bookingList', 'agencyAgentsList'].map((operation) => ({
    operation,
    detail: /^cursor$/,
    prose: /next_cursor this API returned, exactly as returned/i,
  })),
];

/** True when every detail of a 400 is a prose-only rule the document states for this operation. */
export function exempt(op: Operation, body: Schema, details: unknown): boolean {
  if (!Array.isArray(details) || details.length === 0) return false;
  return details.every((detail) => {
    const path = String((detail as Schema)?.path ?? '');
    return EXEMPTIONS.some(
      (e) =>
        e.operation === op.id &&
        e.detail.test(path) &&
        e.prose.test(op.prose) &&
        (!e.when || e.when(body, path)),
    );
  });
}
