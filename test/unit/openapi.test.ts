import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { confirmBookingRequest } from '#shared/bookings/confirm.ts';
import { ERROR_STATUS, type ErrorCode } from '#shared/error-codes.ts';
import { THROTTLED_MESSAGE } from '#shared/errors.ts';
import { EVENT_TYPES } from '#shared/events/booking-event.ts';
import { parseWebhookUrl, WebhookUrlError } from '#shared/events/webhook-url.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { buildOpenApiDocument } from '#shared/openapi/document.ts';
import { errorExample } from '#shared/openapi/examples.ts';
import { COMMON_ERRORS, operations } from '#shared/openapi/operations.ts';
import { routes } from '#shared/routes.ts';
import {
  assertMatchesContract,
  assertMatchesWebhook,
  isDocumentedRequest,
  openapi,
} from '#test/helpers/contract.ts';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type J = any;

describe('OpenAPI document', () => {
  it('is committed exactly as the schemas generate it (run `npm run openapi` after changing them)', () => {
    expect(openapi).toEqual(buildOpenApiDocument(version));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(openapi);

    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toMatch(/^3\.1\./);
  });

  it('documents every route of the route table, with its errors and security', () => {
    expect(Object.keys(openapi.paths).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const route of routes) {
      const operation = openapi.paths[route.path].post;
      const codes = Object.values(operation.responses).flatMap(
        (r: J) => r.content['application/json'].schema.allOf?.[1].properties.error.properties.code.enum ?? [],
      );
      expect(new Set(codes)).toEqual(new Set([...COMMON_ERRORS, ...operations[route.id].errors]));
      expect(operation.security).toEqual(route.auth ? [{ bearerAuth: [] }, { sessionCookie: [] }] : []);
    }
    expect(openapi.paths['/api/flights/booking/create'].post.parameters[0].name).toBe('Idempotency-Key');
  });

  it('lists each error code with the status its class answers', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      if (code === 'METHOD_NOT_ALLOWED') continue;
      const error = errorExample(code);
      expect([error.code, error.statusCode]).toEqual([code, ERROR_STATUS[code]]);
    }
  });

  it('lists every status an operation’s description names', () => {
    for (const [path, item] of Object.entries(openapi.paths) as [string, J][]) {
      const { description, responses } = item.post;
      const named = [...String(description).matchAll(/\b([45]\d\d)\b/g)].map((m) => m[1]);
      for (const status of named) expect(Object.keys(responses), `${path} names ${status}`).toContain(status);
    }
  });

  it('words each error example as that route answers it (404 of an agent, 429 of codes only on send-otp)', () => {
    const example = (path: string, status: number, code: string) =>
      openapi.paths[path].post.responses[String(status)].content['application/json'].examples[code].value
        .error.message;

    expect(example('/api/agency/agents/update', 404, 'NOT_FOUND')).toBe('No such agent in your agency.');
    expect(example('/api/flights/booking/get', 404, 'NOT_FOUND')).toBe('No such booking in your agency.');
    expect(example('/api/auth/send-otp', 429, 'RATE_LIMITED')).toMatch(/codes/);
    expect(example('/api/agency/webhooks/ping', 429, 'RATE_LIMITED')).toMatch(/pings per endpoint/);
    const own = ['/api/auth/send-otp', '/api/agency/webhooks/ping'];
    for (const path of Object.keys(openapi.paths).filter((p) => !own.includes(p))) {
      expect(example(path, 429, 'RATE_LIMITED'), path).toBe(THROTTLED_MESSAGE);
    }
  });

  it('has examples that match its own schemas', () => {
    for (const [path, item] of Object.entries(openapi.paths) as [string, J][]) {
      for (const [status, response] of Object.entries(item.post.responses) as [string, J][]) {
        const content = response.content['application/json'];
        const examples = content.example
          ? [content.example]
          : Object.values(content.examples).map((e: J) => e.value);
        for (const example of examples) assertMatchesContract(path, Number(status), example);
      }
    }
  });
});

describe('OpenAPI document: no looser than the service', () => {
  const schemas = openapi.components.schemas;
  const traveller = {
    title: 'ms',
    first_name: 'Ada',
    last_name: 'Lovelace',
    pax_type: 'ADULT',
    gender: 'f',
    born_on: '1985-04-01',
  };

  it.each([
    ['an e-mail sent as PHONE', { identifier: 'agent@example.com', type: 'PHONE' }],
    ['a phone number sent as EMAIL', { identifier: '+447700900123', type: 'EMAIL' }],
    ['a 255-character e-mail address', { identifier: `${'a'.repeat(243)}@example.com`, type: 'EMAIL' }],
    ['a phone number with 16 digits', { identifier: `+${'4'.repeat(16)}`, type: 'SMS' }],
    ['a phone number without +', { identifier: '447700900123', type: 'PHONE' }],
  ])('send-otp: refuses %s', (_case, body) => {
    expect(isDocumentedRequest('/api/auth/send-otp', body)).toBe(false);
  });

  it.each([
    { identifier: 'agent@example.com', type: 'EMAIL' },
    { identifier: `${'a'.repeat(242)}@example.com`, type: 'EMAIL' },
    { identifier: '+447700900123', type: 'PHONE' },
    { identifier: '+447700900123', type: 'SMS' },
  ])('send-otp: accepts %o', (body) => {
    expect(isDocumentedRequest('/api/auth/send-otp', body)).toBe(true);
  });

  it('verify-otp: the identifier is an e-mail address or an E.164 number, nothing else', () => {
    const valid = (identifier: string) =>
      isDocumentedRequest('/api/auth/verify-otp', { identifier, code: '123456' });

    expect([valid('agent@example.com'), valid('+447700900123')]).toEqual([true, true]);
    expect([valid('x'.repeat(1024)), valid('agent'), valid('+12')]).toEqual([false, false, false]);
  });

  it('booking get: exactly one of booking_id or pnr', () => {
    const id = 'bkg_01KAZ8X3M7N2P4Q6R8S0T1V3W5';
    const valid = (body: unknown) => isDocumentedRequest('/api/flights/booking/get', body);

    expect([valid({ booking_id: id }), valid({ pnr: 'QXBTRV' }), valid({ pnr: 'qxbTRV' })]).toEqual([
      true,
      true,
      true,
    ]);
    expect([valid({}), valid({ booking_id: id, pnr: 'QXBTRV' }), valid({ pnr: ' QXBTRV' })]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('Passenger: born_on is a calendar date, names 1-35 characters, unknown fields allowed', () => {
    const passenger = schemas.Passenger;

    expect(passenger.additionalProperties).toBeUndefined();
    expect(passenger.properties.born_on).toMatchObject({ format: 'date' });
    expect(passenger.properties.first_name).toMatchObject({ minLength: 1, maxLength: 35 });
    expect(schemas.BookingCreateRequest.properties.passengers.items).toEqual({
      $ref: '#/components/schemas/Passenger',
    });
  });

  it('booking create: born_on out of calendar and 3-decimal money are outside the document', () => {
    const offer = operations['booking-create'].requestExample as J;
    const valid = (body: unknown) => isDocumentedRequest('/api/flights/booking/create', body);
    const withPassenger = (p: object) => ({ ...offer, passengers: [{ ...traveller, ...p }] });

    expect(valid(withPassenger({}))).toBe(true);
    expect(valid(withPassenger({ born_on: '1985-13-01' }))).toBe(false);
    expect(valid(withPassenger({ born_on: '1985-02-29' }))).toBe(false);
    expect(valid(withPassenger({ first_name: 'A'.repeat(36) }))).toBe(false);
    expect(valid(withPassenger({ nickname: 'Countess' }))).toBe(true);
  });

  it('search: children and infants carry the maximums the service applies (8 and 9)', () => {
    const search = (party: object) =>
      isDocumentedRequest('/api/flights/search', {
        origin: 'LHR',
        destination: 'JFK',
        departure_date: '2026-12-01',
        adults: 9,
        ...party,
      });
    const properties = schemas.SearchRequest.properties;

    expect([properties.children.maximum, properties.infants.maximum]).toEqual([8, 9]);
    expect([search({ adults: 1, children: 8 }), search({ infants: 9 })]).toEqual([true, true]);
    expect([search({ adults: 1, children: 9 }), search({ infants: 10 })]).toEqual([false, false]);
  });

  it('search: departure_date must be a real date or date-time', () => {
    const valid = (departure_date: string) =>
      isDocumentedRequest('/api/flights/search', { origin: 'LHR', destination: 'JFK', departure_date });

    expect([valid('2026-12-01'), valid('2026-12-01T10:00:00Z')]).toEqual([true, true]);
    expect([
      valid('2026-13-01'),
      valid('2027-01-32'),
      valid('0000-00-00'),
      valid('2027-13-01T10:00:00Z'),
    ]).toEqual([false, false, false, false]);
  });

  it('search: one way or round trip, or slices, never both and never neither, as the service judges it', () => {
    const service = createSearchRequest({ now: () => Date.UTC(2026, 10, 24, 9, 0, 0) });
    const trip = { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-01' };
    const slices = [trip, { origin: 'JFK', destination: 'LAX', departure_date: '2026-12-04' }];
    const bodies: [string, object, boolean][] = [
      ['{}', {}, false],
      ['one way', trip, true],
      ['round trip', { ...trip, return_date: '2026-12-08' }, true],
      ['multi-city', { slices }, true],
      ['slices with origin', { slices, origin: 'LHR' }, false],
      ['slices with return_date', { slices, return_date: '2026-12-08' }, false],
      ['no departure_date', { origin: 'LHR', destination: 'JFK' }, false],
      ['return_date alone', { return_date: '2026-12-08' }, false],
      ['options alone', { adults: 2, sort: 'DURATION' }, false],
    ];
    for (const [name, body, valid] of bodies) {
      expect(z.safeParse(service, body).success, `service: ${name}`).toBe(valid);
      expect(isDocumentedRequest('/api/flights/search', body), `document: ${name}`).toBe(valid);
    }
    expect(schemas.SearchRequest.oneOf).toHaveLength(2);
  });

  it('marks a request body required exactly when the service refuses {} (booking get and search among them)', () => {
    for (const route of routes) {
      const { requestBody } = openapi.paths[route.path].post;
      const refused = !z.safeParse(operations[route.id].request, {}).success;
      expect(requestBody.required, route.path).toBe(refused);
      expect(isDocumentedRequest(route.path, {}), route.path).toBe(!refused);
    }
    expect(openapi.paths['/api/flights/booking/get'].post.requestBody.required).toBe(true);
    expect(openapi.paths['/api/flights/search'].post.requestBody.required).toBe(true);
  });

  it('money: every amount says multipleOf 0.01, and 3 decimals are outside the document as in the service', () => {
    const amounts: string[] = [];
    const walk = (node: J, path: string) => {
      if (!node || typeof node !== 'object') return;
      if (/at most 2 decimals/i.test(String(node.description ?? '')) && node.type === 'number') {
        amounts.push(path);
        expect(node.multipleOf, path).toBe(0.01);
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`);
    };
    walk(openapi.components.schemas, '');
    expect(amounts.length).toBeGreaterThanOrEqual(6);

    const confirm = (total_price: number) => ({
      ...(operations['booking-confirm'].requestExample as J),
      total_price,
    });
    const verdicts = (price: number) => [
      isDocumentedRequest('/api/flights/booking/confirm', confirm(price)),
      z.safeParse(confirmBookingRequest(), confirm(price)).success,
    ];
    for (const price of [412.4, 19.99, 0.07, 366]) expect(verdicts(price), `${price}`).toEqual([true, true]);
    for (const price of [412.405, 19.991, 366.004])
      expect(verdicts(price), `${price}`).toEqual([false, false]);
    const create = { ...(operations['booking-create'].requestExample as J), total_price: 412.405 };
    const cancel = {
      booking_id: 'bkg_01KAZ8X3M7N2P4Q6R8S0T1V3W5',
      refund: { amount: 12.345, currency: 'EUR' },
    };
    expect(isDocumentedRequest('/api/flights/booking/create', create)).toBe(false);
    expect(isDocumentedRequest('/api/flights/booking/cancel', cancel)).toBe(false);
  });

  it('webhook url: an https URI without credentials or fragment, never what the deployed service refuses', () => {
    const url = schemas.AgencyWebhooksCreateRequest.properties.url;
    const documented = (value: string) => isDocumentedRequest('/api/agency/webhooks/create', { url: value });
    const deployedAccepts = (value: string) => {
      try {
        parseWebhookUrl(value, 'deployed');
        return true;
      } catch (error) {
        if (error instanceof WebhookUrlError) return false;
        throw error;
      }
    };

    expect(url).toMatchObject({ format: 'uri', maxLength: 2048 });
    for (const ok of ['https://agency.example.com/hooks/bookings', 'HTTPS://hooks.example.com:8443/a?b=1'])
      expect([documented(ok), deployedAccepts(ok)], ok).toEqual([true, true]);
    for (const refused of [
      'http://agency.example.com/hooks',
      'http://127.0.0.1:4000/hooks',
      'ftp://agency.example.com/hooks',
      'https://user:secret@agency.example.com/hooks',
      'https://user@agency.example.com/hooks',
      'https://agency.example.com/hooks#part',
      'agency.example.com/hooks',
    ])
      expect([documented(refused), deployedAccepts(refused)], refused).toEqual([false, false]);
    expect(documented('https://agency.example.com/a b')).toBe(false);
  });

  it('every 401 documents the WWW-Authenticate header, INVALID_CODE included', () => {
    for (const [path, item] of Object.entries(openapi.paths) as [string, J][]) {
      const unauthorized = item.post.responses['401'];
      if (unauthorized) expect(unauthorized.headers['WWW-Authenticate'], path).toBeDefined();
    }
    expect(openapi.paths['/api/auth/verify-otp'].post.responses['401']).toBeDefined();
  });
});

describe('OpenAPI document: webhooks and types a generator can use', () => {
  const schemas = openapi.components.schemas;
  const resolve = (schema: J): J =>
    schema?.$ref ? schemas[String(schema.$ref).replace('#/components/schemas/', '')] : schema;

  it('describes every event an endpoint receives in its webhooks section, with signed headers', () => {
    expect(Object.keys(openapi.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES, 'webhook.ping'].sort());
    for (const [type, item] of Object.entries(openapi.webhooks) as [string, J][]) {
      const body = item.post.requestBody.content['application/json'];
      const payload = resolve(body.schema);
      expect(payload.required, type).toEqual(['type', 'timestamp', 'data']);
      expect(payload.properties.type.const, type).toBe(type);
      expect(payload.properties.timestamp.type, type).toBe('string');
      expect(item.post.parameters.map((p: J) => [p.in, p.name, p.required])).toEqual([
        ['header', 'webhook-id', true],
        ['header', 'webhook-timestamp', true],
        ['header', 'webhook-signature', true],
      ]);
      expect(Object.keys(item.post.responses)).toEqual(['2XX']);
      assertMatchesWebhook(type, body.example);
      if (type === 'webhook.ping') {
        expect(resolve(payload.properties.data).required).toEqual(['webhook_id', 'agency_id']);
      } else {
        expect(payload.properties.data.$ref ?? payload.properties.data.allOf?.[0]?.$ref, type).toBe(
          '#/components/schemas/Booking',
        );
        // booking.changed is the one event that leaves the status as it was (CONFIRMED, docs/API.md §4.9).
        const status = type === 'booking.changed' ? 'CONFIRMED' : type.replace('booking.', '').toUpperCase();
        expect(body.example.data.status, type).toBe(status);
      }
    }
    // Another type's body is not this type's.
    const confirmed = openapi.webhooks['booking.confirmed'].post.requestBody.content['application/json'];
    expect(() => assertMatchesWebhook('booking.cancelled', confirmed.example)).toThrow();
  });

  it('types every date field: each branch of departure_date and return_date is a string', () => {
    const found: string[] = [];
    const walk = (node: J, path: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node) as [string, J][]) {
        if (key === 'properties')
          for (const [name, property] of Object.entries(value) as [string, J][])
            if (name === 'departure_date' || name === 'return_date') {
              found.push(`${path}.${name}`);
              expect(property.type, `${path}.${name}`).toBe('string');
              for (const branch of [...(property.anyOf ?? []), ...(property.oneOf ?? [])])
                expect(branch.type, `${path}.${name} branch`).toBe('string');
            }
        walk(value, `${path}/${key}`);
      }
    };
    walk(openapi, '');
    expect(found.length).toBeGreaterThanOrEqual(2);
  });
});

describe('OpenAPI document: what a client needs to call it right', () => {
  const maxMoney: number = openapi.components.schemas.BookingCreateRequest.properties.total_price.maximum;
  const cents = (k: number) => Number((k / 100).toFixed(2));

  it('multipleOf 0.01: ajv divides binary floats, so the tests judge it with multipleOfPrecision 5', () => {
    const strict = new Ajv2020({ strict: false }).compile({ type: 'number', multipleOf: 0.01 });
    const tolerant = new Ajv2020({ strict: false, multipleOfPrecision: 5 }).compile({
      type: 'number',
      multipleOf: 0.01,
    });

    // Without a tolerance ajv refuses good money: 19.99 / 0.01 is 1998.9999999999998 in floats.
    expect([strict(412.4), strict(19.99), strict(0.07)]).toEqual([true, false, false]);
    // With 1e-5: every cent up to 1,000.00, the top of the range, and any amount in between.
    for (let k = 0; k <= 100_000; k++) expect(tolerant(cents(k))).toBe(true);
    for (let k = maxMoney * 100 - 10_000; k <= maxMoney * 100; k++) expect(tolerant(cents(k))).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxMoney * 100 }), (k) => tolerant(cents(k))),
      { numRuns: 20_000 },
    );
    // And every amount with 3 to 6 decimals is refused, as the service refuses it.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 3, max: 6 }),
        fc.integer({ min: 1, max: 9 }),
        (whole, decimals, last) => {
          const text = `${whole}.${'0'.repeat(decimals - 1)}${last}`;
          return (
            !tolerant(Number(text)) &&
            !isDocumentedRequest('/api/flights/booking/confirm', {
              booking_id: 'bkg_01KAZ8X3M7N2P4Q6R8S0T1V3W5',
              total_price: Number(text),
              currency: 'EUR',
            })
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('gives create and confirm Idempotency-Key examples of their own, each a valid key', () => {
    const key = (path: string) => openapi.paths[path].post.parameters[0];
    const create = key('/api/flights/booking/create');
    const confirm = key('/api/flights/booking/confirm');

    expect([create.name, confirm.name]).toEqual(['Idempotency-Key', 'Idempotency-Key']);
    expect(create.example).not.toBe(confirm.example);
    for (const parameter of [create, confirm])
      expect(new RegExp(parameter.schema.pattern).test(parameter.example)).toBe(true);
  });

  it('says a request on the session cookie alone needs the JSON content type', () => {
    const cookie = openapi.components.securitySchemes.sessionCookie;

    expect(cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-session' });
    expect(cookie.description).toContain('Content-Type: application/json');
    expect(cookie.description).toMatch(/empty body/);
    expect(cookie.description).toContain('415');
  });

  it('refund quote: expires_at is null when the supplier states none', () => {
    const quote = (operations['booking-refund-quote'].responseExample as J).data;
    const answer = (expires_at: unknown) => ({ success: true, data: { ...quote, expires_at } });

    expect(() => assertMatchesContract('/api/flights/booking/refund-quote', 200, answer(null))).not.toThrow();
    expect(() =>
      assertMatchesContract('/api/flights/booking/refund-quote', 200, answer('2026-12-01T09:30:00Z')),
    ).not.toThrow();
    expect(() => assertMatchesContract('/api/flights/booking/refund-quote', 200, answer('soon'))).toThrow();
  });
});
