import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/openapi/document.ts';
import { ERROR_STATUS, type ErrorCode } from '#shared/openapi/error-codes.ts';
import { COMMON_ERRORS, errorExample, operations } from '#shared/openapi/operations.ts';
import { routes } from '#shared/routes.ts';
import { assertMatchesContract, openapi } from '#test/helpers/contract.ts';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type J = any;

describe('OpenAPI document', () => {
  it('is committed exactly as the schemas generate it (run `npm run openapi` after changing them)', () => {
    expect(openapi).toEqual(buildOpenApiDocument(version));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(openapi);

    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toMatch(/^3\.1\./);
  });

  it('documents every route of the route table, with its errors and security', () => {
    expect(Object.keys(openapi.paths).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const route of routes) {
      const operation = openapi.paths[route.path].post;
      const codes = Object.values(operation.responses).flatMap(
        (r: J) => r.content['application/json'].schema.allOf?.[1].properties.error.properties.code.enum ?? [],
      );
      expect(new Set(codes)).toEqual(new Set([...COMMON_ERRORS, ...operations[route.id].errors]));
      expect(operation.security).toEqual(route.auth ? [{ bearerAuth: [] }, { sessionCookie: [] }] : []);
    }
    expect(openapi.paths['/api/flights/booking/create'].post.parameters[0].name).toBe('Idempotency-Key');
  });

  it('lists each error code with the status its class answers', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      if (code === 'METHOD_NOT_ALLOWED') continue;
      const error = errorExample(code);
      expect([error.code, error.statusCode]).toEqual([code, ERROR_STATUS[code]]);
    }
  });

  it('has examples that match its own schemas', () => {
    for (const [path, item] of Object.entries(openapi.paths) as [string, J][]) {
      for (const [status, response] of Object.entries(item.post.responses) as [string, J][]) {
        const content = response.content['application/json'];
        const examples = content.example
          ? [content.example]
          : Object.values(content.examples).map((e: J) => e.value);
        for (const example of examples) assertMatchesContract(path, Number(status), example);
      }
    }
  });
});
