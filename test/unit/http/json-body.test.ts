import { describe, expect, it } from 'vitest';
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '#shared/errors.ts';
import type { ApiEvent } from '#shared/http/api-event.ts';
import { jsonBody, MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { apiEvent, lambdaContext } from '#test/helpers/api.ts';

/** Runs the body middleware alone on an event; resolves with the parsed body or rejects. */
async function read(rawBody: string | null, headers: Record<string, string> = {}, base64 = false) {
  const event: ApiEvent = { ...apiEvent({ rawBody, headers }), isBase64Encoded: base64 };
  await jsonBody().before?.({
    event,
    context: lambdaContext(),
    response: undefined,
    error: undefined,
    internal: {},
  });
  return event.jsonBody;
}
const json = { 'Content-Type': 'application/json' };

describe('http: JSON body rules', () => {
  it('parses a JSON object, with or without charset, whatever the header name’s case', async () => {
    await expect(read('{"a":1}', json)).resolves.toEqual({ a: 1 });
    await expect(read('{"a":1}', { 'content-type': 'application/json; charset=utf-8' })).resolves.toEqual({
      a: 1,
    });
    await expect(read('{"a":1}', { 'CONTENT-TYPE': 'Application/JSON' })).resolves.toEqual({ a: 1 });
  });

  it('reads an empty or absent body as {} without a content type', async () => {
    await expect(read(null)).resolves.toEqual({});
    await expect(read('')).resolves.toEqual({});
  });

  it.each([
    ['no content type', {}],
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['a +json type', { 'Content-Type': 'application/vnd.api+json' }],
    ['a form', { 'Content-Type': 'application/x-www-form-urlencoded' }],
  ])('refuses a body with %s (415)', async (_case, headers) => {
    await expect(read('{"a":1}', headers)).rejects.toBeInstanceOf(UnsupportedMediaTypeError);
  });

  it.each(['{"a":', '[1,2]', 'null', '42', '"text"', '{"a":1}{"b":2}', '\u0000'])(
    'refuses %j as INVALID_JSON',
    async (body) => {
      await expect(read(body, json)).rejects.toBeInstanceOf(InvalidJsonError);
    },
  );

  it('refuses a body over 64 KiB (413), counted in bytes', async () => {
    const multibyte = `{"a":"${'é'.repeat(MAX_BODY_BYTES / 2)}"}`;

    await expect(read(multibyte, json)).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(read(`{"a":"${'x'.repeat(MAX_BODY_BYTES - 8)}"}`, json)).resolves.toBeDefined();
  });

  it('ignores prototype keys like any unknown field, and pollutes nothing', async () => {
    const parsed = await read(
      '{"a":1,"__proto__":{"admin":true},"b":{"constructor":{"prototype":{"x":1}}}}',
      json,
    );

    expect(parsed).toEqual({ a: 1, b: {} });
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });

  it('decodes a base64-encoded body as API Gateway delivers binary ones', async () => {
    await expect(read(Buffer.from('{"a":1}').toString('base64'), json, true)).resolves.toEqual({ a: 1 });
  });
});
