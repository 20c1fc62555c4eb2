import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { CreateAgentRequest } from '#shared/agency/manage-agents.ts';
import { SendOtpRequest } from '#shared/auth/send-otp.ts';
import { VerifyOtpRequest } from '#shared/auth/verify-otp.ts';
import { createBookingRequest } from '#shared/bookings/request.ts';
import { operations } from '#shared/openapi/operations.ts';
import { isDocumentedRequest } from '#test/helpers/contract.ts';

/**
 * One rule for the service and the document: every place that takes an e-mail address or a phone
 * number accepts exactly what openapi.json's pattern accepts (docs/decisions.md, "Identifiers").
 */
const bookingExample = operations['booking-create'].requestExample as Record<string, unknown>;
const places: [string, string, (value: string, kind: 'EMAIL' | 'PHONE') => unknown, z.ZodMiniType][] = [
  ['send-otp', '/api/auth/send-otp', (identifier, type) => ({ identifier, type }), SendOtpRequest],
  ['verify-otp', '/api/auth/verify-otp', (identifier) => ({ identifier, code: '123456' }), VerifyOtpRequest],
  [
    'agents create',
    '/api/agency/agents/create',
    (identifier, type) => ({ identifier, type, name: 'Ada Lovelace' }),
    CreateAgentRequest,
  ],
  [
    'booking contact',
    '/api/flights/booking/create',
    (value, kind) => ({
      ...bookingExample,
      contact:
        kind === 'EMAIL'
          ? { email: value, phone: '+447700900123' }
          : { email: 'ada@example.com', phone: value },
    }),
    createBookingRequest(),
  ],
];

const verdicts = (value: string, kind: 'EMAIL' | 'PHONE') =>
  places.map(([name, path, body, schema]) => ({
    name,
    document: isDocumentedRequest(path, body(value, kind)),
    service: schema.safeParse(body(value, kind)).success,
  }));

/**
 * Address-shaped text built from the pieces the rules are about: hyphens at label ends, label lengths
 * around 63, dots, look-alikes that lower-case to ASCII (the Kelvin sign), white space around and
 * inside, and anything at all now and then.
 */
const localPiece = fc.constantFrom('a', 'Z', '0', '_', "'", '+', '-', '.', '\u212a', 'é', ' ');
const labelPiece = fc.constantFrom('a', 'B', '0', '-', '_', '\u212a', 'a'.repeat(31), 'b'.repeat(62));
const topLevel = fc.constantFrom(
  'com',
  'CO',
  'uk',
  'x',
  'c0m',
  'co-',
  '\u212aom',
  'c'.repeat(63),
  'c'.repeat(64),
);
const pad = fc.constantFrom('', '', '', ' ', '\n', '\t', '\u3000', '\u00a0', 'x');
const joined = (pieces: fc.Arbitrary<string>, max: number) =>
  fc.array(pieces, { minLength: 1, maxLength: max }).map((parts) => parts.join(''));
const emailLike = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        pad,
        joined(localPiece, 4),
        fc.array(joined(labelPiece, 3), { minLength: 1, maxLength: 3 }),
        topLevel,
        pad,
      )
      .map(
        ([before, local, labels, tld, after]) => `${before}${local}@${[...labels, tld].join('.')}${after}`,
      ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
const phoneLike = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '\t', '\u00a0'),
    fc.constantFrom('+', '', '++', '0'),
    fc.stringMatching(/^[0-9 -]{0,17}$/),
    fc.constantFrom('', ' ', '\n', 'x'),
  )
  .map(([before, plus, digits, after]) => `${before}${plus}${digits}${after}`);

describe('property: identifiers, the service and the document agree', () => {
  it.each([
    ['an e-mail address', 'EMAIL', emailLike],
    ['a phone number', 'PHONE', phoneLike],
  ] as const)('%s is accepted by both or refused by both, wherever one is taken', (_case, kind, values) => {
    fc.assert(
      fc.property(values, (value) => {
        for (const verdict of verdicts(value, kind))
          expect(verdict.service, verdict.name).toBe(verdict.document);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['a domain label ending in -', 'a@b-.com', false],
    ['a domain label starting with -', 'a@-b.com', false],
    ['a 64-character domain label', `a@${'b'.repeat(64)}.com`, false],
    ['a 64-character top-level label', `a@b.${'c'.repeat(64)}`, false],
    ['the Kelvin sign for K', '\u212Aate@example.com', false],
    ['a 63-character domain label', `a@${'b'.repeat(63)}.com`, true],
    ['a hyphen inside a label', 'a@b-c.example.com', true],
    ['surrounding white space', '  Kate@Example.com\n', true],
    ['254 characters, white space included', ` ${'a'.repeat(241)}@example.com`, true],
    ['255 characters, white space included', `  ${'a'.repeat(241)}@example.com`, false],
  ])('e-mail with %s: %s is accepted: %s, by every route and the document', (_case, value, accepted) => {
    for (const verdict of verdicts(value, 'EMAIL'))
      expect(verdict, verdict.name).toMatchObject({ document: accepted, service: accepted });
  });

  it.each([
    ['padded with spaces', ' +447700900123 ', true],
    ['padded with a tab and a newline', '\t+447700900123\n', true],
    ['with spaces inside', '+44 7700 900123', false],
  ])('phone %s: %j is accepted: %s, by every route and the document', (_case, value, accepted) => {
    for (const verdict of verdicts(value, 'PHONE'))
      expect(verdict, verdict.name).toMatchObject({ document: accepted, service: accepted });
  });
});
