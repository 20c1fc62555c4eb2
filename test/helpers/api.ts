import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface EventOptions {
  path?: string;
  method?: string;
  /** Serialised as JSON with `Content-Type: application/json` unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string | null;
  headers?: Record<string, string>;
}

/** An API Gateway REST proxy event as the gateway (or the dev server) delivers it. */
export function apiEvent(options: EventOptions = {}): APIGatewayProxyEvent {
  const path = options.path ?? '/api/test';
  const json = options.rawBody === undefined;
  const headers = { ...(json && { 'Content-Type': 'application/json' }), ...options.headers };
  return {
    resource: path,
    path,
    httpMethod: options.method ?? 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: json ? JSON.stringify(options.body ?? {}) : (options.rawBody ?? null),
    isBase64Encoded: false,
    requestContext: { requestId: randomUUID(), stage: 'test' } as APIGatewayProxyEvent['requestContext'],
  };
}

export function lambdaContext(): Context {
  const deadline = Date.now() + 10_000;
  return {
    awsRequestId: randomUUID(),
    functionName: 'test',
    getRemainingTimeInMillis: () => deadline - Date.now(),
  } as Context;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
  body: any;
}

/** Invokes a real handler and parses its answer. */
export async function invoke(handler: Handler, options: EventOptions = {}): Promise<Answer> {
  const result = await handler(apiEvent(options), lambdaContext());
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
  return { status: result.statusCode, headers, body: JSON.parse(result.body) };
}
