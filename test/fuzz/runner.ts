import fc from 'fast-check';
import { exempt, type Operation, ServedDocument } from './document.ts';
import { type Schema, validArbitrary } from './json-schema.ts';
import { type Answer, type FuzzAdmin, LiveState, send } from './live.ts';
import {
  documentEnumValues,
  type Mutation,
  mutationArbitrary,
  nodes,
  type RequestSpec,
  serialize,
  setAt,
} from './mutations.ts';

export interface FuzzOptions {
  url: string;
  /** The server's DATA_DIR, where the outbox holds sign-in codes. */
  dataDir: string;
  seed: number;
  /** Fuzz cases; each sends one request (plus the searches that keep offers fresh). */
  runs: number;
  concurrency?: number;
  /** Agents whose sessions logout may revoke (each costs a CLI run at start). */
  logoutSessions?: number;
  /** The ADMIN whose session the cases use, and its agency: the demo agent unless given. */
  admin?: FuzzAdmin;
}

export interface Finding {
  kind: '5xx' | 'contract' | 'valid-refused' | 'invalid-accepted' | 'respelled-accepted';
  problem: string;
  seed: number;
  caseIndex: number;
  operation: string;
  mutation: string;
  request: string;
  response: string;
  /** How many cases met the same finding (same kind, operation, status, code, paths, mutation kind). */
  occurrences: number;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** operationId → status → count. */
  byOperation: Record<string, Record<string, number>>;
  findings: Finding[];
  durationMs: number;
}

/** Operations weighted by how much they have to mutate. */
const WEIGHTS: Record<string, number> = { bookingCreate: 5, search: 3, sendOtp: 2 };
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset=("?)utf-8\2\s*)?$/i;

const sample = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  return value as T;
};

/** Renders a request with every credential elided. */
function render(op: Operation, request: RequestSpec, text: string, secrets: Iterable<string>): string {
  const tokens = [...secrets].filter((s) => s.split('.').length === 3);
  const headers = Object.entries(request.headers).map(([name, value]) => {
    let shown = value;
    for (const token of tokens) shown = shown.replaceAll(token, '<token>');
    return `${name}: ${JSON.stringify(shown).slice(1, -1)}`;
  });
  const body = text.length > 1500 ? `${text.slice(0, 1500)}… (${text.length} chars)` : text;
  return [`${op.method.toUpperCase()} ${op.path}`, ...headers, '', body].join('\n');
}

const renderAnswer = (answer: Answer) =>
  `${answer.status}\n${answer.text.length > 1500 ? `${answer.text.slice(0, 1500)}…` : answer.text}`;

/**
 * Sends `runs` generated requests to the server at `url` and checks every answer: never a 5xx; the
 * status documented for the route and the body matching its schema; a request the document calls
 * valid never refused as malformed; a body the document refuses (text judged as its descriptions say:
 * after NFC, trimmed) never accepted; a re-spelled id or token never accepted.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const { url, seed, runs } = options;
  const document = await ServedDocument.fetch(url);
  const enumValues = documentEnumValues(document.doc);
  const byOperation: Record<string, Record<string, number>> = {};
  const findings = new Map<string, Finding>();
  let requests = 0;

  const count = (op: Operation, status: number) => {
    requests += 1;
    const row = byOperation[op.id] ?? {};
    row[status] = (row[status] ?? 0) + 1;
    byOperation[op.id] = row;
  };

  const record = (
    kind: Finding['kind'],
    problem: string,
    key: string,
    context: {
      caseIndex: number;
      op: Operation;
      mutation: string;
      request: RequestSpec;
      text: string;
      answer: Answer;
    },
  ) => {
    const id = `${kind}|${context.op.id}|${key}`;
    const existing = findings.get(id);
    if (existing) {
      existing.occurrences += 1;
      return;
    }
    findings.set(id, {
      kind,
      problem,
      seed,
      caseIndex: context.caseIndex,
      operation: context.op.id,
      mutation: context.mutation,
      request: render(context.op, context.request, context.text, live.issued),
      response: renderAnswer(context.answer),
      occurrences: 1,
    });
  };

  /** The checks every answer gets; `valid` says whether the document calls the request valid. */
  const check = (
    caseIndex: number,
    op: Operation,
    request: RequestSpec,
    text: string,
    answer: Answer,
    mutation: Mutation | undefined,
    valid: boolean,
    /** The document's complaints about the body, when the rest of the request is valid. */
    bodyErrors: readonly string[] = [],
  ) => {
    count(op, answer.status);
    const label = mutation?.label ?? 'valid request';
    // Kinds of mutation, not their values, identify a finding: "3 decimals" rather than "412.403".
    const kindOf = label.replace(/\d+/g, 'N');
    const context = { caseIndex, op, mutation: label, request, text, answer };
    const code = answer.body?.error?.code ?? '';
    if (answer.status >= 500)
      record('5xx', `answered ${answer.status} ${code}`, `${answer.status}|${kindOf}`, context);
    const problem = document.responseProblem(op, answer.status, answer.body, answer.headers);
    if (problem)
      record(
        'contract',
        problem,
        `${answer.status}|${code}|${problem.replace(/\d+/g, 'N').slice(0, 120)}`,
        context,
      );
    const refusedAsMalformed =
      (answer.status === 400 && ['VALIDATION_ERROR', 'INVALID_JSON'].includes(code)) || answer.status === 415;
    if (
      valid &&
      refusedAsMalformed &&
      !exempt(op, parse(text) as Record<string, unknown>, answer.body?.error?.details)
    ) {
      const paths = Array.isArray(answer.body?.error?.details)
        ? answer.body.error.details
            .map((d: { path?: string }) => String(d.path).replace(/\.\d+\./g, '.N.'))
            .join(',')
        : '';
      record(
        'valid-refused',
        `the document calls this request valid, yet it answered ${answer.status} ${code} on [${paths}]`,
        `${answer.status}|${code}|${paths}`,
        context,
      );
    }
    if (bodyErrors.length > 0 && answer.status >= 200 && answer.status < 300) {
      const problem = bodyErrors[0] ?? '';
      record(
        'invalid-accepted',
        `the document refuses this body (${problem}), yet it answered ${answer.status}`,
        `${answer.status}|${problem.replace(/\d+/g, 'N').slice(0, 120)}`,
        context,
      );
    }
    if (mutation?.respelled === 'token' && answer.status < 500 && answer.status !== 401) {
      record(
        'respelled-accepted',
        `a re-spelled token answered ${answer.status}, not 401`,
        `${answer.status}|${kindOf}`,
        context,
      );
    }
    if (mutation?.respelled === 'id' && answer.status >= 200 && answer.status < 300) {
      record(
        'respelled-accepted',
        `a re-spelled id answered ${answer.status}: §1 makes it an unknown id`,
        `${answer.status}|${kindOf}`,
        context,
      );
    }
  };

  const live = new LiveState(url, options.dataDir, document, seed, (op, request, text, answer) =>
    check(-1, op, request, text, answer, undefined, document.requestErrors(op, parse(text)).length === 0),
  );
  await live.prepare(options.logoutSessions ?? 3, options.admin);

  const operations = document.operations;
  const pickOperation = fc.constantFrom(
    ...operations.flatMap((op) => Array.from({ length: WEIGHTS[op.id] ?? 1 }, () => op)),
  );

  /** The valid request each operation starts from, and whether its credential is a live one. */
  const base = async (
    op: Operation,
    caseSeed: number,
  ): Promise<{ request: RequestSpec; liveCredential: boolean }> => {
    const json = { 'content-type': 'application/json' };
    const generated = () => sample(validArbitrary(document.doc, op.requestSchema), caseSeed);
    const pick = <T>(values: readonly T[]) => values[(caseSeed >>> 0) % values.length];
    switch (op.id) {
      case 'sendOtp': {
        const type = sample(fc.constantFrom('EMAIL', 'PHONE', 'SMS'), caseSeed);
        const identifier = live.identifier(caseSeed, type === 'EMAIL' ? 'EMAIL' : 'PHONE');
        return { request: { body: { identifier, type }, headers: json }, liveCredential: true };
      }
      case 'verifyOtp': {
        const body = { ...(generated() as object), identifier: live.identifier(caseSeed, 'EMAIL') };
        return { request: { body, headers: json }, liveCredential: true };
      }
      // Both end the session they are sent with: never the fuzzer's own.
      case 'logout':
      case 'refresh': {
        const { token, valid } = live.logoutToken();
        return { request: { body: {}, headers: { ...json, ...live.auth(token) } }, liveCredential: valid };
      }
      case 'search':
        return {
          request: { body: live.searchBody(caseSeed), headers: { ...json, ...live.auth() } },
          liveCredential: true,
        };
      case 'bookingCreate': {
        const body = live.bookingBody(await live.takeOffer(), caseSeed);
        const key = sample(
          fc.option(validArbitrary(document.doc, op.headerParameters['idempotency-key'] ?? {}), { freq: 2 }),
          caseSeed,
        );
        const headers: Record<string, string> = { ...json, ...live.auth() };
        if (typeof key === 'string') headers['idempotency-key'] = key;
        return { request: { body, headers }, liveCredential: true };
      }
      case 'bookingGet':
      case 'bookingCancel': {
        const booking = pick(live.bookings);
        const byPnr = op.id === 'bookingGet' && (caseSeed & 1) === 1;
        const body = booking
          ? byPnr
            ? { pnr: booking.pnr }
            : { booking_id: booking.booking_id }
          : generated();
        return { request: { body, headers: { ...json, ...live.auth() } }, liveCredential: true };
      }
      case 'bookingList': {
        const body = { ...(generated() as object) } as Record<string, unknown>;
        if (live.cursor && (caseSeed & 1) === 1) body.cursor = live.cursor;
        else delete body.cursor;
        return { request: { body, headers: { ...json, ...live.auth() } }, liveCredential: true };
      }
      case 'agencyAgentsCreate': {
        // A fresh identifier of the form the type says, so that valid creates really create.
        const generatedBody = generated() as Record<string, unknown>;
        const type = pick(['EMAIL', 'PHONE', 'SMS'] as const) ?? 'EMAIL';
        const identifier = live.identifier(caseSeed, type === 'EMAIL' ? 'EMAIL' : 'PHONE');
        const body = { ...generatedBody, identifier, type, role: 'AGENT' };
        return { request: { body, headers: { ...json, ...live.auth() } }, liveCredential: true };
      }
      case 'agencyAgentsUpdate': {
        // An agent of the fuzzer's agency that is not its own session's, so a valid change applies
        // (deactivating the session's own agent would sign the whole run out).
        const body = { ...(generated() as Record<string, unknown>) };
        const agentId = pick(live.colleagues);
        if (agentId) body.agent_id = agentId;
        return { request: { body, headers: { ...json, ...live.auth() } }, liveCredential: true };
      }
      case 'agencyAgentsList': {
        const body = { ...(generated() as object) } as Record<string, unknown>;
        delete body.cursor;
        return { request: { body, headers: { ...json, ...live.auth() } }, liveCredential: true };
      }
      default: {
        // An operation this fuzzer has no meaning for yet: schema-generated, signed in.
        const headers = op.authenticated ? { ...json, ...live.auth() } : json;
        return { request: { body: generated(), headers }, liveCredential: true };
      }
    }
  };

  /** Whether the headers are ones the document and §1 call valid for this operation. */
  const validHeaders = (op: Operation, headers: Record<string, string>, credential: string | undefined) => {
    if (!JSON_MEDIA_TYPE.test(headers['content-type'] ?? '')) return false;
    // HTTP drops a field value's leading and trailing whitespace (RFC 9110 §5.5): judge what arrives.
    const arriving = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.trim()]));
    if (document.headerErrors(op, arriving).length > 0) return false;
    if (!op.authenticated) return true;
    return (
      credential !== undefined &&
      (headers.authorization === `Bearer ${credential}` ||
        (headers.authorization === undefined && headers.cookie === `__Host-session=${credential}`))
    );
  };

  const runCase = async (caseIndex: number) => {
    const caseSeed = (seed + Math.imul(caseIndex + 1, 0x9e3779b1)) | 0;
    const op = sample(pickOperation, caseSeed);
    const { request: baseRequest, liveCredential } = await base(op, caseSeed);
    const credential = /^Bearer (.+)$/.exec(baseRequest.headers.authorization ?? '')?.[1];
    const ctx = {
      doc: document.doc,
      issued: live.issued,
      enumValues,
      authenticated: op.authenticated,
      headerParameters: op.headerParameters,
    };
    // One case in six is the valid base itself; the rest are near-valid.
    const mutate = sample(fc.integer({ min: 0, max: 5 }), caseSeed ^ 0x1234) !== 0;
    const mutation = mutate
      ? sample(mutationArbitrary(baseRequest, op.requestSchema, ctx), caseSeed)
      : undefined;
    const request = mutation ? mutation.apply(baseRequest) : baseRequest;
    const text = request.rawBody ?? serialize(request.body);
    const wellSent =
      request.rawBody === undefined &&
      Buffer.byteLength(text) <= 64 * 1024 &&
      liveCredential &&
      validHeaders(op, request.headers, credential);
    const body = parse(text);
    const bodyErrors = wellSent ? document.requestErrors(op, body) : [];
    const valid = wellSent && bodyErrors.length === 0;
    // What the document refuses even as the service judges text (§1), for "invalid-accepted".
    const refused =
      bodyErrors.length > 0 ? document.requestErrors(op, asJudged(document.doc, op.requestSchema, body)) : [];
    const answer = await send(url, op, text, request.headers);
    check(caseIndex, op, request, text, answer, mutation, valid, refused);
    if (op.id === 'bookingCreate' && answer.status === 201) live.remember(answer.body?.data);
    if (op.id === 'bookingList' && answer.status === 200) live.rememberList(answer.body);
    if (op.id === 'search' && answer.status === 200 && Array.isArray(answer.body?.data)) {
      live.rememberOffers(answer.body.data.slice(0, 5));
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < runs) {
      const caseIndex = next++;
      await runCase(caseIndex);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));

  return { seed, requests, byOperation, findings: [...findings.values()], durationMs: Date.now() - started };
}

/**
 * `body` as the service judges it where the document says so in prose: a string field described as
 * counted "after NFC" (§1) is normalised to NFC, one described as "trimmed" is trimmed. Nothing else
 * changes, so an e-mail address with a look-alike letter is judged exactly as sent.
 */
function asJudged(doc: Schema, schema: Schema, body: unknown): unknown {
  let judged = body;
  for (const node of nodes(doc, body, schema)) {
    if (typeof node.value !== 'string' || typeof node.schema.description !== 'string') continue;
    let value = node.value;
    if (/after NFC/i.test(node.schema.description)) value = value.normalize('NFC');
    if (/\btrimmed\b/i.test(node.schema.description)) value = value.trim();
    if (value !== node.value) judged = setAt(judged, node.path, value);
  }
  return judged;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The report as text: requests by operation and status, then each finding with its reproduction. */
export function formatReport(report: FuzzReport, reproduce: (f: Finding) => string): string {
  const lines = [
    `fuzz seed ${report.seed}: ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const [op, statuses] of Object.entries(report.byOperation).sort()) {
    const row = Object.entries(statuses)
      .sort()
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    lines.push(`  ${op.padEnd(14)} ${row}`);
  }
  lines.push(report.findings.length === 0 ? 'no findings' : `${report.findings.length} distinct findings:`);
  report.findings.forEach((f, i) => {
    lines.push(
      '',
      `#${i + 1} [${f.kind}] ${f.operation}: ${f.problem} (${f.occurrences}×)`,
      `  seed ${f.seed}, case ${f.caseIndex}: ${f.mutation}`,
      `  reproduce: ${reproduce(f)}`,
      '  request:',
      ...f.request.split('\n').map((l) => `    ${l}`),
      '  response:',
      ...f.response.split('\n').map((l) => `    ${l}`),
    );
  });
  return lines.join('\n');
}
