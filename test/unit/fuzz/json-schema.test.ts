import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validArbitrary } from '#test/fuzz/json-schema.ts';
import { isDocumentedRequest, openapi } from '#test/helpers/contract.ts';

const requestSchema = (path: string) =>
  openapi.paths[path].post.requestBody.content['application/json'].schema;

describe('fn: validArbitrary', () => {
  it.each([
    // oneOf alternatives whose `not` forbids the other alternative's fields.
    '/api/flights/search',
    // format: uri with an https pattern.
    '/api/agency/webhooks/create',
    '/api/flights/booking/confirm',
    '/api/flights/booking/cancel',
  ])('generates only bodies the document accepts for %s', (path) => {
    const refused = fc
      .sample(validArbitrary(openapi, requestSchema(path)), { numRuns: 200, seed: 20_261_128 })
      .filter((body) => !isDocumentedRequest(path, body));

    expect(refused.slice(0, 3)).toEqual([]);
  });

  it('generates both search alternatives: a single trip and multi-city', () => {
    const bodies = fc.sample(validArbitrary(openapi, requestSchema('/api/flights/search')), {
      numRuns: 100,
      seed: 20_261_128,
    }) as Record<string, unknown>[];

    expect(bodies.some((body) => 'slices' in body)).toBe(true);
    expect(bodies.some((body) => 'origin' in body)).toBe(true);
  });
});
