import type { ApiError } from '../errors.ts';
import type { ApiResult, Reply } from './api-event.ts';

const baseHeaders = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** `{"success": true, "data": …, "meta"?: …}` with the request id header. */
export function successResponse(reply: Reply, requestId: string): ApiResult {
  const body =
    reply.meta === undefined
      ? { success: true, data: reply.data }
      : { success: true, data: reply.data, meta: reply.meta };
  return {
    statusCode: reply.status,
    headers: { ...baseHeaders, ...reply.headers, 'X-Request-Id': requestId },
    body: JSON.stringify(body),
  };
}

/** `{"success": false, "error": {code, message, details?, request_id}}`; 5xx messages are generic. */
export function errorResponse(error: ApiError, requestId: string): ApiResult {
  const body = {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details && { details: error.details }),
      request_id: requestId,
    },
  };
  return {
    statusCode: error.statusCode,
    headers: { ...baseHeaders, ...error.headers, 'X-Request-Id': requestId },
    body: JSON.stringify(body),
  };
}
