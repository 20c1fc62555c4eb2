import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

/** The committed OpenAPI document. */
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
export const openapi: any = JSON.parse(readFileSync('openapi.json', 'utf8'));

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;
// multipleOfPrecision: the document's money is `multipleOf: 0.01`, and ajv divides binary floats (19.99
// / 0.01 is 1998.9999…). A tolerance of 1e-5 on the quotient accepts every 2-decimal amount up to
// 99,999,999.99 and refuses every amount with 3 to 6 decimals (test/unit/openapi.test.ts).
const ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 5 });
addFormats(ajv);
ajv.addSchema(openapi, 'openapi.json');

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * Throws unless `body` is exactly what the document says `path` answers with `status`: the status must
 * be documented and the body must match its schema.
 */
export function assertMatchesContract(path: string, status: number, body: unknown): void {
  const responses = openapi.paths[path]?.post?.responses;
  if (!responses) throw new Error(`${path} is not in the OpenAPI document`);
  if (!responses[String(status)])
    throw new Error(`${path} answered ${status}, which the document does not list`);
  const ref = `openapi.json#/${pointer('paths', path, 'post', 'responses', String(status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    throw new Error(
      `${path} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}

/** Whether the document calls `body` a valid request body for `path`. */
export function isDocumentedRequest(path: string, body: unknown): boolean {
  const ref = `openapi.json#/${pointer('paths', path, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return validate(body) === true;
}

/** Throws unless `body` is what the document's `webhooks` section says a delivery of `type` POSTs. */
export function assertMatchesWebhook(type: string, body: unknown): void {
  if (!openapi.webhooks?.[type]) throw new Error(`${type} is not in the document's webhooks`);
  const ref = `openapi.json#/${pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body))
    throw new Error(
      `${type} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
}
