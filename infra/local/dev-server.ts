import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type ConsoleFiles, consoleResponse, isScreenPath, pageForVisit } from '#shared/console/serve.ts';
import {
  ApiError,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
} from '#shared/errors.ts';
import { functionSettings } from '#shared/function-spec.ts';
import { errorResponse } from '#shared/http/response.ts';
import {
  documentRoute,
  ROUTE_METHOD,
  type Route,
  routes,
  SWEEP_EVERY_SECONDS,
  sweepJob,
} from '#shared/routes.ts';
import { serveDocs } from './docs.ts';
import { encodedBody } from './gateway-compression.ts';

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway refuses bodies over 10 MB before any function runs; so does the dev server. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How long past its advertised keep-alive timeout the dev server keeps an idle connection open. */
const IDLE_CONNECTION_GRACE_MS = 60_000;

/**
 * How often `npm start` runs the sweep: a quarter of the deployed schedule, so a hold that lapses
 * locally (HOLD_MINUTES=1) frees its seats well within the minute the contract promises.
 */
const LOCAL_SWEEP_EVERY_MS = (SWEEP_EVERY_SECONDS * 1000) / 4;

/**
 * The local sweep's period: `SWEEP_INTERVAL_SECONDS` (0.1–3600, for tests) or {@link LOCAL_SWEEP_EVERY_MS}.
 * Anything else stops the start-up, since a NaN would make a timer that fires every millisecond.
 */
export function localSweepEveryMs(value: string | undefined): number {
  if (value === undefined || value === '') return LOCAL_SWEEP_EVERY_MS;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600)
    throw new Error('SWEEP_INTERVAL_SECONDS must be a number of seconds from 0.1 to 3600');
  return Math.round(seconds * 1000);
}

/** The sweep's handler, from the entry file the stack bundles. */
export async function loadSweep(root: string): Promise<() => Promise<unknown>> {
  const module = (await import(pathToFileURL(resolve(root, sweepJob.entry)).href)) as {
    handler: () => Promise<unknown>;
  };
  return module.handler;
}

/** Imports every route's handler, exactly the entry file the stack bundles. */
export async function loadHandlers(
  root: string,
): Promise<Map<string, { route: Route; handler: LambdaHandler }>> {
  const table = new Map<string, { route: Route; handler: LambdaHandler }>();
  for (const route of [...routes, documentRoute]) {
    const module = (await import(pathToFileURL(resolve(root, route.entry)).href)) as {
      handler: LambdaHandler;
    };
    table.set(route.path, { route, handler: module.handler });
  }
  return table;
}

/**
 * Serves the route table over HTTP by turning each request into the API Gateway REST proxy event the
 * deployed function would get, and its result back into the HTTP response; and, given a console build,
 * the agent console at `/` by the same rules as the stack (shared/console/serve.ts). `afterWrite` is
 * called once the answer to a request that may have written (any method but GET) is sent: the local
 * event pipeline polls the stream at once (infra/local/events-pipeline.ts).
 */
export function createDevServer(
  handlers: Map<string, { route: Route; handler: LambdaHandler }>,
  consoleFiles?: ConsoleFiles,
  afterWrite?: () => void,
): Server {
  const server = createServer(async (req, res) => {
    const requestId = randomUUID();
    if (afterWrite && req.method !== 'GET') res.once('finish', afterWrite);
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // The API documentation: the OpenAPI document and a page rendering it, both GET.
      if (req.method === 'GET' && (await serveDocs(url.pathname, res, requestId))) return;
      if (consoleFiles && serveConsole(req, res, url.pathname, consoleFiles, requestId)) return;
      const entry = handlers.get(url.pathname);
      if (!entry) throw new NotFoundError(`No endpoint at ${url.pathname}.`);
      const method = entry.route.id === documentRoute.id ? 'GET' : ROUTE_METHOD;
      if (req.method !== method) throw new MethodNotAllowedError(method);
      const body = await readBody(req);
      const event = toProxyEvent(req, url, entry.route, body, requestId);
      const result = await entry.handler(event, lambdaContext(entry.route, requestId));
      writeResult(res, result);
    } catch (error) {
      req.resume();
      const httpError = error instanceof ApiError ? error : undefined;
      if (!httpError) console.error('dev server: unhandled error', (error as Error)?.name);
      writeResult(res, errorResponse(httpError ?? new InternalError(), requestId));
    }
  });
  server.on('clientError', answerUnparsedRequest);
  // A keep-alive client counts the idle time advertised in `Keep-Alive: timeout=5` from when it reads
  // an answer, the server from when it sent it; on a loaded machine the client reads late, and a server
  // closing soon after 5 s closes the connection the client is reusing ("other side closed"). So the
  // server waits a minute past what it advertises: the client, which trusts the advertisement, closes first.
  server.keepAliveTimeoutBuffer = IDLE_CONNECTION_GRACE_MS;
  return server;
}

/**
 * What node:http cannot parse never reaches the handler: headers over its `maxHeaderSize` (16 KiB),
 * a malformed request line, a request that took too long to arrive. Node's own answer is a bare status
 * line; this one is the envelope every other answer has, with an `X-Request-Id`, as the gateway's
 * refusals are (code `REQUEST_REJECTED`, docs/API.md §2). The connection is closed after it, since
 * the rest of the request cannot be read.
 */
function answerUnparsedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const requestId = randomUUID();
  const body = JSON.stringify({
    success: false,
    error: { code: 'REQUEST_REJECTED', message, request_id: requestId },
  });
  const head = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** The console's page and assets for GET and HEAD; a screen address asked with another method is 405. */
function serveConsole(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  files: ConsoleFiles,
  requestId: string,
): boolean {
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (!read) {
    if (isScreenPath(path)) throw new MethodNotAllowedError('GET, HEAD');
    return false;
  }
  const answer = consoleResponse(path, files);
  if (!answer) return false;
  req.resume();
  // Compressed as the gateway compresses the deployed answers (gateway-compression.ts).
  const text = isScreenPath(path) ? pageForVisit(answer.body, [req.headers.cookie ?? '']) : answer.body;
  const { body, encoding } = encodedBody(text, req.headers['accept-encoding']);
  res.writeHead(answer.statusCode, {
    ...answer.headers,
    ...(encoding && { 'Content-Encoding': encoding }),
    'Content-Length': String(body.length),
    'X-Request-Id': requestId,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) throw new PayloadTooLargeError('The body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toProxyEvent(
  req: IncomingMessage,
  url: URL,
  route: Route,
  body: Buffer,
  requestId: string,
): APIGatewayProxyEvent {
  // Without a prototype, a header named `__proto__` or `constructor` is just a header.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? '';
    const value = req.rawHeaders[i + 1] ?? '';
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query = [...url.searchParams.keys()];
  return {
    resource: route.path,
    path: url.pathname,
    httpMethod: req.method ?? ROUTE_METHOD,
    headers,
    multiValueHeaders,
    queryStringParameters: query.length ? Object.fromEntries(url.searchParams) : null,
    multiValueQueryStringParameters: query.length
      ? Object.fromEntries(query.map((key) => [key, url.searchParams.getAll(key)]))
      : null,
    pathParameters: null,
    stageVariables: null,
    body: body.length > 0 ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: req.method ?? ROUTE_METHOD,
      path: url.pathname,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: route.id,
      resourcePath: route.path,
      identity: callerIdentity(req),
    },
  };
}

/** Who called, as API Gateway tells a function: the address and user agent; no IAM or Cognito caller. */
function callerIdentity(req: IncomingMessage): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    userAgent: req.headers['user-agent'] ?? null,
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    user: null,
    userArn: null,
  };
}

function lambdaContext(route: Route, requestId: string): Context {
  // The deployed function's deadline and size (the route table's): handlers read them through the context.
  const supplier = process.env.SUPPLIER === 'duffel' ? 'duffel' : 'network';
  const { memoryMb, timeoutSeconds } = functionSettings(route, supplier);
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.id}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String);
  const body = result.isBase64Encoded
    ? Buffer.from(result.body, 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  headers['Content-Length'] = String(body.length);
  res.writeHead(result.statusCode, headers);
  res.end(body);
}
