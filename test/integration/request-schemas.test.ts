import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { validateBody } from '#shared/http/validate.ts';
import { operations } from '#shared/openapi/operations.ts';
import { routes } from '#shared/routes.ts';

// The real validation middleware, watched: every schema a handler is built with passes through it.
vi.mock('#shared/http/validate.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('#shared/http/validate.ts')>();
  return { ...original, validateBody: vi.fn(original.validateBody) };
});

/** The JSON Schema of a request body, as the OpenAPI document is generated from it. */
const jsonSchemaOf = (schema: z.ZodMiniType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/**
 * The routes whose request schemas are built on the first request that reaches validation, not at import
 * (docs/decisions.md, "Cold start and packages"): a cold start refused before validation builds none.
 */
const BUILT_ON_FIRST_USE = [
  'logout',
  'session',
  'refresh',
  'search',
  'airports-search',
  'booking-create',
  'booking-get',
  'booking-list',
  'booking-confirm',
  'booking-cancel',
  'booking-refund-quote',
];

describe('request schemas', () => {
  it.each(routes.map((route) => [route.id, route] as const))(
    '%s validates with exactly the schema the OpenAPI document publishes',
    async (_id, route) => {
      const built = vi.mocked(validateBody).mock.calls.length;
      // The function file (its deployed handler) and the tests' handler over the test context.
      // Resolved at run time (@vite-ignore: vite's dynamic-import globbing cannot name nested folders).
      await import(/* @vite-ignore */ `#test/helpers/routes/${route.entry.replace(/^functions\//, '')}`);
      const sources = vi
        .mocked(validateBody)
        .mock.calls.slice(built)
        .map(([source]) => source);
      const schemas = sources.map((source) => jsonSchemaOf(typeof source === 'function' ? source() : source));

      if (BUILT_ON_FIRST_USE.includes(route.id)) {
        for (const source of sources) expect(typeof source).toBe('function');
      }

      expect(schemas.length).toBeGreaterThan(0);
      for (const schema of schemas) expect(schema).toEqual(jsonSchemaOf(operations[route.id].request));
    },
  );
});
