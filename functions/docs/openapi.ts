import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { transportSecurity } from '#shared/http/headers.ts';
import document from '../../openapi.json' with { type: 'json' };

const body = JSON.stringify(document);

/** `GET /openapi.json`: the committed OpenAPI document, in the dev server and the deployed stack alike. */
export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
    // Deployed (the same handler serves npm start), HSTS like every answer of the stage.
    ...transportSecurity(),
    'X-Request-Id': event.requestContext?.requestId || randomUUID(),
  },
  body,
});
