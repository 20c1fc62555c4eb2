import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Session } from '../auth/session.ts';

/** The API Gateway event as the middlewares enrich it. */
export interface ApiEvent extends APIGatewayProxyEvent {
  requestId?: string;
  startedAt?: number;
  jsonBody?: Record<string, unknown>;
  session?: Session;
  /** Where the session's token came from: the Authorization header or the session cookie. */
  sessionVia?: 'bearer' | 'cookie';
  validBody?: unknown;
}

export type ApiResult = APIGatewayProxyResult;

/** What a route's action answers on success; the envelope is added around `data`. */
export interface Reply {
  status: number;
  data: unknown;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What a route's action receives; `session` is typed present exactly on authenticated routes. */
export interface ApiRequest<Body, S extends Session | undefined = Session | undefined> {
  readonly requestId: string;
  readonly body: Body;
  readonly session: S;
  /** Where the session's token came from, on authenticated routes. */
  readonly sessionVia: S extends Session ? 'bearer' | 'cookie' : undefined;
  /** Request headers as received (look them up with `readHeader`). */
  readonly headers: Record<string, string | undefined>;
}
