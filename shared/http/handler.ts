import middy, { type MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import type { Role } from '../auth/roles.ts';
import type { Session } from '../auth/session.ts';
import { type TokenDeps, verifySessionToken } from '../auth/session-token.ts';
import type { TableHandle } from '../db/client.ts';
import { ForbiddenError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Route } from '../routes.ts';
import type { ApiEvent, ApiRequest, ApiResult, Reply } from './api-event.ts';
import { authenticate } from './authenticate.ts';
import { httpEnvelope } from './envelope.ts';
import { jsonBody } from './json-body.ts';
import { successResponse } from './response.ts';
import { type SchemaSource, validateBody } from './validate.ts';

/** What the HTTP stack itself needs: the session check (token settings, clock, table), the log and CORS. */
interface HttpDeps extends TokenDeps, TableHandle {
  readonly config: {
    readonly CORS_ALLOWED_ORIGINS: readonly string[];
    /** Set by Lambda: the answers go out over HTTPS, with HSTS. */
    readonly AWS_LAMBDA_FUNCTION_NAME?: string | undefined;
  };
  readonly log: Logger;
}

/** 403 FORBIDDEN unless the session's current role is one the route allows (checked before validation). */
function requireRole(roles: readonly Role[]): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: ({ event }) => {
      if (!event.session || !roles.includes(event.session.role)) throw new ForbiddenError();
    },
  };
}

/** The caller an action of `route` is sure to have: a session on authenticated routes, none otherwise. */
type SessionOf<R extends Route> = R['auth'] extends true ? Session : undefined;

/**
 * The one HTTP stack every function uses: request id → JSON body → auth (when the route table says
 * so) → validation → action → envelope. A function file names its route and composes. `body` is
 * the request schema or what builds it on first use (validate.ts).
 *
 * @example export const handler = httpHandler(route('logout'), LogoutRequest, action, context);
 */
export function httpHandler<R extends Route, S extends z.ZodMiniType>(
  route: R,
  body: SchemaSource<S>,
  action: (request: ApiRequest<z.output<S>, SessionOf<R>>) => Promise<Reply>,
  deps: HttpDeps,
) {
  const stack = middy<ApiEvent, ApiResult>()
    .use(
      httpEnvelope(deps.log, {
        redact: [deps.tableName],
        corsOrigins: deps.config.CORS_ALLOWED_ORIGINS,
        deployed: Boolean(deps.config.AWS_LAMBDA_FUNCTION_NAME),
      }),
    )
    .use(jsonBody());
  if (route.auth)
    stack.use(authenticate((token) => verifySessionToken(token, deps), deps.config.CORS_ALLOWED_ORIGINS));
  if (route.roles) stack.use(requireRole(route.roles));
  return stack.use(validateBody(body)).handler(async (event) => {
    const requestId = event.requestId ?? '';
    const reply = await action({
      requestId,
      body: event.validBody as z.output<S>,
      // The authenticate middleware ran exactly when the route requires a session.
      session: event.session as SessionOf<R>,
      sessionVia: event.sessionVia as ApiRequest<z.output<S>, SessionOf<R>>['sessionVia'],
      headers: event.headers ?? {},
    });
    return successResponse(reply, requestId);
  });
}
