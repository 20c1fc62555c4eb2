import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';
import { apiEvent, invoke, lambdaContext } from '#test/helpers/api.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const Booking = z.object({
  name: z.string().min(1),
  passengers: z.array(z.object({ born_on: z.iso.date(), pax_type: z.enum(['ADULT', 'CHILD']) })).min(1),
});
/** Test routes: only `auth` matters to the stack. */
const open = { ...route('send-otp'), id: 'test-open', path: '/api/test' } as const;
const echo = httpHandler(open, Booking, async (request) => ({ status: 201, data: request.body }), context);
const failing = httpHandler(
  open,
  z.object({}),
  async () => {
    throw new Error(`cannot write to ${context.tableName}: disk full`);
  },
  context,
);
const valid = { name: 'Ada', passengers: [{ born_on: '1990-01-01', pax_type: 'ADULT' }] };

describe('http stack', () => {
  it('wraps the action result in the success envelope with the request id header', async () => {
    const event = apiEvent({ body: valid });

    const result = await echo(event, lambdaContext());

    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body)).toEqual({ success: true, data: valid });
    expect(result.headers?.['X-Request-Id']).toBe(event.requestContext.requestId);
    expect(result.headers?.['Content-Type']).toBe('application/json; charset=utf-8');
  });

  it('ignores unknown fields and never echoes them', async () => {
    const rawBody = JSON.stringify({ ...valid, extra: 'x' }).replace(/}$/, ',"__proto__":{"admin":true}}');

    const answer = await invoke(echo, { rawBody, headers: { 'Content-Type': 'application/json' } });

    expect(rawBody).toContain('"__proto__"');
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual(valid);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('accepts a charset parameter and any header case', async () => {
    const answer = await invoke(echo, {
      rawBody: JSON.stringify(valid),
      headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
    });

    expect(answer.status).toBe(201);
  });

  it('accepts a base64-encoded body as API Gateway may deliver it', async () => {
    const event = { ...apiEvent({ body: valid }), isBase64Encoded: true };
    event.body = Buffer.from(JSON.stringify(valid)).toString('base64');

    const result = await echo(event, lambdaContext());

    expect(result.statusCode).toBe(201);
  });

  it('refuses a body without a JSON content type with 415', async () => {
    const answer = await invoke(echo, {
      rawBody: 'name=Ada',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

    expect(answer.status).toBe(415);
    expect(answer.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a body over 64 KiB with 413 and accepts one of exactly 64 KiB', async () => {
    const padded = (size: number) => {
      const base = JSON.stringify({ ...valid, pad: '' });
      return JSON.stringify({ ...valid, pad: 'x'.repeat(size - base.length) });
    };

    const over = await invoke(echo, {
      rawBody: padded(70 * 1024),
      headers: { 'Content-Type': 'application/json' },
    });
    const exact = await invoke(echo, {
      rawBody: padded(64 * 1024),
      headers: { 'Content-Type': 'application/json' },
    });

    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(exact.status).toBe(201);
  });

  it.each([
    ['malformed JSON', '{"name": '],
    ['an array', '[1, 2]'],
    ['null', 'null'],
    ['a string', '"hello"'],
  ])('refuses %s with 400 INVALID_JSON', async (_case, rawBody) => {
    const answer = await invoke(echo, { rawBody, headers: { 'Content-Type': 'application/json' } });

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_JSON');
    expect(answer.body.error.details).toBeUndefined();
  });

  it('lists one detail per problem with the dotted path', async () => {
    const answer = await invoke(echo, {
      body: {
        passengers: [
          { born_on: '1990-01-01', pax_type: 'ADULT' },
          { born_on: '1990-13-45', pax_type: 'PET' },
        ],
      },
    });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'name',
      'passengers.1.born_on',
      'passengers.1.pax_type',
    ]);
    for (const detail of answer.body.error.details) expect(detail.message).toEqual(expect.any(String));
  });

  it('answers an unexpected failure with a generic 500 and keeps internals out of the answer and the log', async () => {
    const before = capturedLogLines.length;

    const answer = await invoke(failing, { body: {} });

    expect(answer.status).toBe(500);
    expect(answer.body.error).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side.',
      request_id: expect.any(String),
    });
    const logged = capturedLogLines.slice(before).join('\n');
    expect(logged).toContain('"status":500');
    expect(logged).toContain('disk full');
    expect(logged).not.toContain(context.tableName);
    expect(logged).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers 503 SERVICE_UNAVAILABLE when DynamoDB fails, without saying how', async () => {
    const throttle = () => async () => {
      throw Object.assign(new Error(`Rate exceeded for table ${context.tableName}`), {
        name: 'ThrottlingException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
      });
    };
    context.db.middlewareStack.add(throttle, { step: 'initialize', name: 'injectThrottle' });
    try {
      const answer = await invoke(sendOtp, { body: { identifier: 'agent@example.com', type: 'EMAIL' } });

      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(answer.body)).not.toContain(context.tableName);
    } finally {
      context.db.middlewareStack.remove('injectThrottle');
    }
  });
});

describe('http stack: what an operator can search the logs by', () => {
  it('writes one access line per request with the stage, both request ids, the cold-start flag and the trace id', async () => {
    const before = capturedLogLines.length;
    vi.stubEnv(
      '_X_AMZN_TRACE_ID',
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    );
    const event = apiEvent({ body: valid });
    const lambda = lambdaContext();

    await echo(event, lambda);
    await echo(apiEvent({ body: valid }), lambdaContext());
    vi.unstubAllEnvs();

    const lines = capturedLogLines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((line) => line.message === 'request');
    expect(lines[0]).toMatchObject({
      stage: expect.any(String),
      request_id: event.requestContext.requestId,
      lambda_request_id: lambda.awsRequestId,
      cold_start: expect.any(Boolean),
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      status: 201,
    });
    expect(lines[1]?.cold_start).toBe(false);
  });
});
