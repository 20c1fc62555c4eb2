import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type ApiError, MethodNotAllowedError, NotFoundError } from '../errors.ts';
import { readHeaderValues, transportSecurity } from '../http/headers.ts';
import { errorResponse } from '../http/response.ts';
import { ASSETS_PREFIX, type ConsoleFiles, consoleResponse, isScreenPath, pageForVisit } from './serve.ts';

/** The methods the console's addresses answer; any other is 405. */
export const CONSOLE_METHODS = ['GET', 'HEAD'] as const;

/** A stage or base-path prefix the page may be told about: path segments of URL-safe characters only. */
const SAFE_PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * What API Gateway put before the console's own address: the stage on the default endpoint
 * (`/dev`), a custom domain's base path, or nothing. `requestContext.path` is the address as the
 * browser asked for it, `path` the part the resource matched.
 */
function addressPrefix(event: Pick<APIGatewayProxyEvent, 'path' | 'requestContext'>): string {
  const full = event.requestContext?.path ?? event.path;
  const own = event.path === '/' ? '' : event.path;
  if (!full.endsWith(own)) return '';
  const prefix = full.slice(0, full.length - own.length).replace(/\/$/, '');
  return SAFE_PREFIX.test(prefix) ? prefix : '';
}

/**
 * The page as served below `prefix`: its asset addresses carry the prefix, and a `console-base` meta
 * tells the application where its addresses and the API start (`/dev/bookings`, `/dev/api/…`).
 */
export function pageBelow(page: string, prefix: string): string {
  if (!prefix) return page;
  return page
    .replaceAll(`"${ASSETS_PREFIX}`, `"${prefix}${ASSETS_PREFIX}`)
    .replace('<head>', `<head><meta name="console-base" content="${prefix}">`);
}

/**
 * The deployed console function: GET (and HEAD) of a screen address or an asset of `files`, with the
 * serving rules of serve.ts and the request id every answer carries; 404 and 405 in the contract's
 * envelope, as the gateway answers its own.
 */
export function consoleHandler(files: ConsoleFiles) {
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext?.requestId || randomUUID();
    const refused = (error: ApiError) => {
      const response = errorResponse(error, requestId);
      return { ...response, headers: { ...response.headers, ...transportSecurity() } };
    };
    if (!(CONSOLE_METHODS as readonly string[]).includes(event.httpMethod))
      return refused(new MethodNotAllowedError(CONSOLE_METHODS.join(', ')));
    const answer = consoleResponse(event.path, files);
    if (!answer) return refused(new NotFoundError('No endpoint at this path.'));
    const body = isScreenPath(event.path)
      ? pageBelow(pageForVisit(answer.body, readHeaderValues(event, 'cookie')), addressPrefix(event))
      : answer.body;
    return {
      statusCode: answer.statusCode,
      // Deployed, every answer goes out over HTTPS: HSTS (http/headers.ts), refusals included.
      headers: { ...answer.headers, ...transportSecurity(), 'X-Request-Id': requestId },
      body: event.httpMethod === 'HEAD' ? '' : body,
    };
  };
}
