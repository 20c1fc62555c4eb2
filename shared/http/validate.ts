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

/** Validates the parsed body against `schema`; the handler sees only its output. */
export function validateBody(schema: z.ZodMiniType): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: ({ event }) => {
      const result = schema.safeParse(event.jsonBody ?? {}, { error: errorMap });
      if (!result.success) throw new ValidationError(toDetails(result.error));
      event.validBody = result.data;
    },
  };
}
