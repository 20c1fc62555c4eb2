import middy from '@middy/core';
import type * as z from 'zod';
import { verifySessionToken } from '../auth/session-token.ts';
import { context } from '../context.ts';
import type { ApiEvent, ApiRequest, ApiResult, Reply } from './api-event.ts';
import { authenticate } from './authenticate.ts';
import { httpEnvelope } from './envelope.ts';
import { jsonBody } from './json-body.ts';
import { successResponse } from './response.ts';
import { validateBody } from './validate.ts';

export interface HandlerOptions<S extends z.ZodType> {
  /** Whether the route requires a session (bearer token or cookie). */
  auth: boolean;
  /** The request body schema; the action receives its output. */
  body: S;
}

/**
 * The one HTTP stack every function uses: request id → JSON body → auth → validation → action →
 * envelope. A function file only composes:
 *
 * @example export const handler = httpHandler({ auth: false, body: SendOtpRequest }, sendOtpAction);
 */
export function httpHandler<S extends z.ZodType>(
  options: HandlerOptions<S>,
  action: (request: ApiRequest<z.output<S>>) => Promise<Reply>,
) {
  const tokenSettings = {
    key: context.keys.token,
    issuer: context.config.TOKEN_ISSUER,
    audience: context.config.TOKEN_AUDIENCE,
    clock: context.clock,
  };
  const stack = middy<ApiEvent, ApiResult>()
    .use(
      httpEnvelope(context.log, {
        redact: [context.tableName],
        corsOrigins: context.config.CORS_ALLOWED_ORIGINS,
      }),
    )
    .use(jsonBody());
  if (options.auth) stack.use(authenticate((token) => verifySessionToken(token, tokenSettings, context)));
  return stack.use(validateBody(options.body)).handler(async (event) => {
    const requestId = event.requestId ?? '';
    const reply = await action({
      requestId,
      body: event.validBody as z.output<S>,
      session: event.session,
      headers: event.headers ?? {},
    });
    return successResponse(reply, requestId);
  });
}
