import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { operations } from '#shared/openapi/operations.ts';
import { routes } from '#shared/routes.ts';

/** The JSON Schema of a request body, as the OpenAPI document is generated from it. */
const jsonSchemaOf = (schema: z.ZodMiniType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

describe('request schemas', () => {
  it.each(routes.map((route) => [route.id, route] as const))(
    '%s validates with exactly the schema the OpenAPI document publishes',
    async (_id, route) => {
      // The tests' handler of the route: the function file's createHandler over the test context.
      const module = (await import(`#test/helpers/routes/${route.entry.replace(/^functions\//, '')}`)) as {
        handler: { requestSchema: z.ZodMiniType };
      };

      expect(jsonSchemaOf(module.handler.requestSchema)).toEqual(jsonSchemaOf(operations[route.id].request));
    },
  );
});
