import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { invocationFields } from '../invocation.ts';
import { type Logger, requestFields } from '../log.ts';
import type { ApiEvent, ApiResult } from './api-event.ts';
import { toApiError } from './failures.ts';
import { readHeader, TRANSPORT_SECURITY } from './headers.ts';
import { errorResponse } from './response.ts';

/**
 * The outermost middleware: assigns the request id, turns every error into the contract's envelope
 * (5xx with a generic message), and writes one access-log line per request.
 *
 * @param options.redact strings that must never reach a log line (e.g. the table name)
 * @param options.corsOrigins browser origins that get CORS headers
 * @param options.deployed a deployed function: every answer says HSTS (headers.ts, TRANSPORT_SECURITY)
 */
export function httpEnvelope(
  log: Logger,
  options: { redact?: readonly string[]; corsOrigins?: readonly string[]; deployed?: boolean } = {},
): MiddlewareObj<ApiEvent, ApiResult> {
  const cors = corsHeaders(options.corsOrigins ?? []);
  // What every answer gets on top of its own headers, success or error.
  const added = (event: ApiEvent) => ({ ...cors(event), ...(options.deployed && TRANSPORT_SECURITY) });
  const access = (event: ApiEvent, status: number, extra: Record<string, string | number | undefined> = {}) =>
    log.info('request', {
      method: event.httpMethod,
      path: event.resource ?? event.path,
      status,
      duration_ms: Math.round(performance.now() - (event.startedAt ?? performance.now())),
      // Who, for authenticated requests: ids only, never the token or the identifier.
      ...(event.session && { agent_id: event.session.agentId, agency_id: event.session.agencyId }),
      ...extra,
    });

  return {
    before: ({ event, context }) => {
      const lambdaRequestId = (context as Context | undefined)?.awsRequestId;
      event.requestId = event.requestContext?.requestId || lambdaRequestId || randomUUID();
      event.startedAt = performance.now();
      // What an operator searches by, on every line of this request: both request ids, whether this
      // invocation paid the cold start, and the X-Ray trace.
      requestFields.enterWith(
        invocationFields({ request_id: event.requestId, lambda_request_id: lambdaRequestId }),
      );
    },
    after: ({ event, response }) => {
      if (!response) return;
      response.headers = { ...response.headers, ...added(event) };
      access(event, response.statusCode);
    },
    onError: (request) => {
      const { event, error } = request;
      event.requestId ??= randomUUID();
      const httpError = toApiError(error);
      if (httpError.statusCode >= 500) logServerError(log, options.redact ?? [], event.requestId, error);
      const response = errorResponse(httpError, event.requestId);
      response.headers = { ...response.headers, ...added(event) };
      request.response = response;
      access(event, httpError.statusCode, { code: httpError.code });
    },
  };
}

/**
 * The line of a request that failed with a 5xx: what the error was (its message with every `redact`
 * string scrubbed) and the AWS request it came from, if any.
 */
function logServerError(log: Logger, redact: readonly string[], requestId: string, error: unknown) {
  const scrub = (text: string) =>
    redact.reduce((acc, secret) => (secret ? acc.split(secret).join('[redacted]') : acc), text);
  const cause = error as {
    name?: string;
    message?: string;
    $metadata?: { requestId?: string; httpStatusCode?: number };
  };
  log.error('request failed', {
    request_id: requestId,
    error_name: cause?.name,
    error_message: typeof cause?.message === 'string' ? scrub(cause.message) : undefined,
    aws_request_id: cause?.$metadata?.requestId,
    aws_status: cause?.$metadata?.httpStatusCode,
  });
}

/**
 * CORS response headers for an allowed `Origin`; none for other origins or when no origins are
 * configured. Credentials are allowed, so the origin is echoed, never `*`.
 */
function corsHeaders(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (event: ApiEvent): Record<string, string> => {
    const origin = readHeader(event.headers, 'origin');
    if (!origin || !allowed.has(origin)) return {};
    return {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After, Idempotent-Replayed',
      Vary: 'Origin',
    };
  };
}
