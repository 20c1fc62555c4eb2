import * as z from 'zod/mini';
import { passenger } from '../bookings/request.ts';
import { ERROR_STATUS, type ErrorCode } from '../error-codes.ts';
import { type Route, routes } from '../routes.ts';
import { errorExample } from './examples.ts';
import type { Operation } from './operation.ts';
import { COMMON_ERRORS, operations } from './operations.ts';
import { Agent, Booking, ErrorEnvelope, Flight, Segment } from './responses.ts';
import { webhookEvents, webhooksSection, webhooksTag } from './webhook-events.ts';

type Json = Record<string, unknown>;

const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const camel = (id: string) => id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Component schemas from zod: requests as clients send them, responses as the API answers them. */
function componentSchemas(): Record<string, Json> {
  const requests = z.registry<{ id: string }>();
  const responses = z.registry<{ id: string }>();
  // BookedPassenger: as stored and answered, exactly these fields (requests use the open `Passenger`).
  const named = { Segment, Flight, BookedPassenger: passenger(), Booking, Agent, Error: ErrorEnvelope };
  for (const [id, schema] of Object.entries(named)) responses.add(schema, { id });
  // As clients send it: unknown fields are ignored, not refused (docs/API.md §1).
  requests.add(passenger(), { id: 'Passenger' });
  for (const event of Object.values(webhookEvents)) responses.add(event.schema, { id: event.schemaId });
  for (const route of routes) {
    const operation = operations[route.id];
    requests.add(operation.request, { id: `${pascal(route.id)}Request` });
    responses.add(operation.response, { id: `${pascal(route.id)}Response` });
  }
  const uri = (id: string) => `#/components/schemas/${id}`;
  const all = {
    ...z.toJSONSchema(requests, { io: 'input', uri, unrepresentable: 'any' }).schemas,
    ...z.toJSONSchema(responses, { io: 'output', uri, unrepresentable: 'any' }).schemas,
  };
  // Component schemas are plain 2020-12 subschemas of the document: no $schema, no fragment $id.
  return Object.fromEntries(
    Object.entries(all).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema as Json;
      return [id, rest];
    }),
  );
}

/** The error responses of `operation`: every route's codes and its own, by status, with examples. */
function errorResponses(operation: Operation): Record<string, Json> {
  const codes = [...new Set([...COMMON_ERRORS, ...operation.errors])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => {
        const examples = Object.fromEntries(
          list.map((code) => {
            const error = operation.errorExamples?.[code] ?? errorExample(code);
            return [
              code,
              {
                summary: error.message,
                value: {
                  success: false,
                  error: {
                    code,
                    message: error.message,
                    ...(error.details && { details: error.details }),
                    request_id: '6b0f2b55-3c1e-4f5e-9a57-2c1d0e8f4a21',
                  },
                },
              },
            ];
          }),
        );
        const headers: Json = { 'X-Request-Id': header('XRequestId') };
        if (status === 429 || status === 503 || list.includes('IDEMPOTENCY_IN_PROGRESS'))
          headers['Retry-After'] = header('RetryAfter');
        if (status === 401) headers['WWW-Authenticate'] = header('WWWAuthenticate');
        return [
          String(status),
          {
            description: list.join(', '),
            headers,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    ref('Error'),
                    {
                      type: 'object',
                      properties: { error: { type: 'object', properties: { code: { enum: list } } } },
                    },
                  ],
                },
                examples,
              },
            },
          },
        ];
      }),
  );
}

/** `example`, or `examples` with the main one as `default` when there are more of this `kind`. */
function examplesOf(main: unknown, more: Operation['moreExamples'], kind: 'request' | 'response'): Json {
  const named = more?.[kind];
  if (!named) return { example: main };
  return { examples: { default: { summary: more?.mainSummary ?? 'One way', value: main }, ...named } };
}

function operationFor(route: Route): Json {
  const operation = operations[route.id as keyof typeof operations];
  const requestId = `${pascal(route.id)}Request`;
  const successHeaders: Json = { 'X-Request-Id': header('XRequestId') };
  const answer = (description: string, examples: Json): Json => ({
    description,
    headers: successHeaders,
    content: { 'application/json': { schema: ref(`${pascal(route.id)}Response`), ...examples } },
  });
  if (operation.setsCookie) successHeaders['Set-Cookie'] = header('SetCookie');
  if (operation.idempotencyKey) successHeaders['Idempotent-Replayed'] = header('IdempotentReplayed');
  return {
    operationId: camel(route.id),
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    security: route.auth ? [{ bearerAuth: [] }, { sessionCookie: [] }] : [],
    ...(operation.idempotencyKey && {
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the request safe to retry: the same key with the same body answers the stored result again (Idempotent-Replayed: true) and books nothing; another body is 422; kept 24 hours, per agent.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
          example: operation.idempotencyKey.example,
        },
      ],
    }),
    requestBody: {
      // The service reads a missing body as {} (docs/API.md §1): the body is required when {} is refused.
      required: !z.safeParse(operation.request, {}).success,
      content: {
        'application/json': {
          schema: ref(requestId),
          ...examplesOf(operation.requestExample, operation.moreExamples, 'request'),
        },
      },
    },
    responses: {
      [String(operation.status)]: answer(
        operation.summary,
        examplesOf(operation.responseExample, operation.moreExamples, 'response'),
      ),
      ...(operation.accepted && {
        '202': answer(operation.accepted.description, { example: operation.accepted.example }),
      }),
      ...errorResponses(operation),
    },
  };
}

/** Where the API answers: locally, and the deployed stack's URL. */
const servers = [
  { url: 'http://127.0.0.1:3000', description: 'Local: npm start' },
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
    description: 'Deployed stack (the ApiUrl output)',
    variables: {
      apiId: { default: 'abc123' },
      region: { default: 'eu-west-1' },
      stage: { default: 'prod' },
    },
  },
];

/** The two ways a signed-in call authenticates. */
const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The verification_token from verify-otp.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-session',
    description:
      'Set by verify-otp (and refresh); cleared by logout. A request authenticated by the cookie alone (no Authorization header, which wins when both are sent) must say `Content-Type: application/json`, even with an empty body: 415 UNSUPPORTED_MEDIA_TYPE otherwise, since a cross-site form can send the cookie but not that content type without a CORS preflight.',
  },
};

/** The headers answers refer to. */
const responseHeaders = {
  XRequestId: {
    description: 'Identifies the request in logs; also in error.request_id.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
  SetCookie: {
    description:
      '__Host-session=<token>; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600 (Max-Age=0 on logout).',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: '`true` when the answer is a stored one, replayed for a repeated Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  WWWAuthenticate: {
    description:
      'On every 401: `Bearer realm="flight-booking"`, with `, error="invalid_token"` when a token was presented and refused',
    schema: { type: 'string' },
  },
};

/** The OpenAPI 3.1 document of the API, generated from the schemas the handlers validate with. */
export function buildOpenApiDocument(version: string): Json {
  const schemas = componentSchemas();
  return {
    openapi: '3.1.1',
    info: {
      title: 'Flight Booking API',
      version,
      description: [
        'Flight search and booking for travel agencies.',
        '',
        'Sign in with a one-time code (`send-otp`, then `verify-otp`), then call the other endpoints with `Authorization: Bearer <verification_token>` or the `__Host-session` cookie.',
        'Every endpoint is `POST` with a JSON body; answers are `{"success": true, "data": …}` or `{"success": false, "error": {"code", "message", "details"?, "request_id"}}`.',
        'Prices are in major currency units with at most 2 decimals; times are ISO 8601 UTC with `Z`. Every answer carries `X-Request-Id`.',
      ].join('\n'),
    },
    servers,
    tags: [
      { name: 'Sign-in', description: 'One-time codes by e-mail or SMS, and sessions.' },
      { name: 'Flights', description: 'Search and offers.' },
      { name: 'Bookings', description: 'Create, retrieve, list and cancel.' },
      { name: 'Agency', description: 'Agency administration: ADMINs manage their agency’s agents.' },
      webhooksTag,
    ],
    paths: Object.fromEntries(routes.map((route) => [route.path, { post: operationFor(route) }])),
    webhooks: webhooksSection(ref),
    components: {
      schemas,
      securitySchemes,
      headers: responseHeaders,
    },
  };
}
