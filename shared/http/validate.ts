import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { type ErrorDetail, ValidationError } from '../errors.ts';
import type { ApiEvent, ApiResult } from './api-event.ts';
import '../zod-locale.ts';

/** A missing field reads "is required" rather than zod's "expected string, received undefined". */
const errorMap = (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : undefined);

/** One detail per problem, with the dotted path into the body (`passengers.0.born_on`). */
function toDetails(error: z.core.$ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * A request schema, or a function that builds it: then it is built on the first request that reaches
 * validation, not at import, so a cold start refused before validation (401, 415) builds none.
 */
export type SchemaSource<S extends z.ZodMiniType> = S | (() => S);

/** Validates the parsed body against the schema of `source`; the handler sees only its output. */
export function validateBody(source: SchemaSource<z.ZodMiniType>): MiddlewareObj<ApiEvent, ApiResult> {
  let built = typeof source === 'function' ? undefined : source;
  return {
    before: ({ event }) => {
      built ??= (source as () => z.ZodMiniType)();
      const schema = built;
      const result = schema.safeParse(event.jsonBody ?? {}, { error: errorMap });
      if (!result.success) throw new ValidationError(toDetails(result.error));
      event.validBody = result.data;
    },
  };
}
