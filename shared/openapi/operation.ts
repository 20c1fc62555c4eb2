import type * as z from 'zod/mini';
import type { ErrorCode } from '../error-codes.ts';
import type { ApiError } from '../errors.ts';

/** How the document describes one route. */
export interface Operation {
  summary: string;
  description: string;
  tag: 'Sign-in' | 'Flights' | 'Bookings' | 'Agency';
  request: z.ZodMiniType;
  requestExample: unknown;
  status: number;
  response: z.ZodMiniType;
  responseExample: unknown;
  /** Codes the route itself can answer, beyond the ones every route can (see COMMON_ERRORS). */
  errors: ErrorCode[];
  /** This route's own wording of an error, where it differs from `errorExample`'s (examples.ts). */
  errorExamples?: Partial<Record<ErrorCode, ApiError>>;
  /** Takes an Idempotency-Key header; `example` is this route's own (a key is one request's, never reused). */
  idempotencyKey?: { example: string };
  /** A second success status with the same body: 202 for a booking a supplier has not settled yet. */
  accepted?: { description: string; example: unknown };
  setsCookie?: boolean;
  /** Named examples besides the main one (documented as `examples`, the main one as `default`). */
  moreExamples?: {
    /** The main example's summary beside the named ones ('One way' unless given). */
    mainSummary?: string;
    request?: Record<string, { summary: string; value: unknown }>;
    response?: Record<string, { summary: string; value: unknown }>;
  };
}
