import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { CreateAgentRequest, ListAgentsRequest, UpdateAgentRequest } from '#shared/agency/manage-agents.ts';
import { logoutRequest } from '#shared/auth/logout.ts';
import { SendOtpRequest } from '#shared/auth/send-otp.ts';
import { VerifyOtpRequest } from '#shared/auth/verify-otp.ts';
import { cancelBookingRequest, getBookingRequest, listBookingsRequest } from '#shared/bookings/manage.ts';
import { createBookingRequest } from '#shared/bookings/request.ts';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { minimalBookingBody } from '#test/helpers/fixtures.ts';

const now = Date.UTC(2026, 11, 1, 9, 0, 0);
const SearchRequest = createSearchRequest({ now: () => now });
const schemas: [string, z.ZodMiniType][] = [
  ['send-otp', SendOtpRequest],
  ['verify-otp', VerifyOtpRequest],
  ['logout', logoutRequest()],
  ['search', SearchRequest],
  ['booking create', createBookingRequest()],
  ['booking get', getBookingRequest()],
  ['booking list', listBookingsRequest()],
  ['booking cancel', cancelBookingRequest()],
  ['agents list', ListAgentsRequest],
  ['agents create', CreateAgentRequest],
  ['agents update', UpdateAgentRequest],
];

/** Anything JSON.parse can produce, with hostile keys mixed in. */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string(),
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'identifier', 'origin', 'passengers'),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

describe('property: request schemas', () => {
  it.each(schemas)('%s never throws, whatever the body', (_name, schema) => {
    fc.assert(
      fc.property(hostileJson, (body) => {
        expect(() => schema.safeParse(body)).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  const validSearch = { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-02' };
  it('search never accepts what the contract forbids', () => {
    const forbidden = fc.oneof(
      fc.record({
        adults: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 10 }), fc.double({ noInteger: true })),
      }),
      fc.record({ children: fc.integer({ max: -1 }) }),
      fc
        .integer({ min: 1, max: 9 })
        .chain((adults) =>
          fc.record({ adults: fc.constant(adults), infants: fc.integer({ min: adults + 1, max: 20 }) }),
        ),
      fc
        .integer({ min: 1, max: 9 })
        .chain((adults) =>
          fc.record({ adults: fc.constant(adults), children: fc.integer({ min: 10 - adults, max: 20 }) }),
        ),
      fc.record({ limit: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 })) }),
      fc.record({ max_connections: fc.integer().filter((n) => n !== 0 && n !== 1) }),
      fc.record({ origin: fc.string().filter((s) => !/^[A-Z]{3}$/.test(s)) }),
      fc.record({
        departure_date: fc
          .integer({ min: 1, max: 3000 })
          .map((days) => new Date(now - days * 86_400_000).toISOString().slice(0, 10)),
      }),
      fc.record({
        departure_date: fc
          .integer({ min: 332, max: 3000 })
          .map((days) => new Date(now + days * 86_400_000).toISOString().slice(0, 10)),
      }),
      fc.record({
        travel_class: fc
          .string()
          .filter((s) => !['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'].includes(s)),
      }),
    );
    fc.assert(
      fc.property(forbidden, (change) => {
        expect(SearchRequest.safeParse({ ...validSearch, ...change }).success).toBe(false);
      }),
      { numRuns: 500 },
    );
    expect(SearchRequest.safeParse(validSearch).success).toBe(true);
  });

  it('send-otp and verify-otp never accept a malformed identifier or code', () => {
    const notAnIdentifier = fc.string().filter((s) => !s.includes('@') && !/^\s*\+\d{8,15}\s*$/.test(s));
    fc.assert(
      fc.property(
        notAnIdentifier,
        fc.string().filter((s) => !/^\d{6}$/.test(s)),
        (identifier, code) => {
          expect(SendOtpRequest.safeParse({ identifier, type: 'EMAIL' }).success).toBe(false);
          expect(VerifyOtpRequest.safeParse({ identifier: 'agent@example.com', code }).success).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('booking create never accepts a name with characters outside Latin letters, space, hyphen, apostrophe', () => {
    const badName = fc
      .string({ minLength: 1, maxLength: 35, unit: 'binary' })
      .filter((s) => /[^\p{Script=Latin}\p{M} '’-]/u.test(s));
    fc.assert(
      fc.property(badName, (name) => {
        const body = minimalBookingBody({ first_name: name });
        expect(createBookingRequest().safeParse(body).success).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('booking create takes exactly the names the documented pattern takes after NFC, ASCII or not', () => {
    // The pattern of docs/API.md §1 and openapi.json, as one regex: what the fast path for ASCII names
    // (shared/bookings/request.ts) must agree with, and the stored name is the NFC form.
    const documented = /^(?=.*\p{Script=Latin})[\p{Script=Latin}\p{M} '’-]{1,35}$/u;
    const nameChars = fc.constantFrom(..."aZé ’-'.0\u0301\u00e9\u0142\u4e00\t_Ω".split(''));
    const name = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40, unit: 'binary' }),
      fc.string({ minLength: 1, maxLength: 37, unit: nameChars }),
      fc.string({ minLength: 33, maxLength: 37, unit: fc.constantFrom(..."aZ -'".split('')) }),
    );
    fc.assert(
      fc.property(name, (first_name) => {
        const parsed = createBookingRequest().safeParse(minimalBookingBody({ first_name }));
        const nfc = first_name.normalize('NFC');
        expect(parsed.success).toBe(documented.test(nfc));
        if (parsed.success) expect(parsed.data.passengers[0]?.first_name).toBe(nfc);
      }),
      { numRuns: 1000 },
    );
  });

  it('booking get, list and cancel never accept malformed ids, PNRs, limits or cursors', () => {
    const notABookingId = fc.string().filter((v) => !/^bkg_[0-9A-HJKMNP-TV-Z]{26}$/.test(v));
    // Not a booking reference in any letter case: 5-8 letters and digits (an airline's record locator).
    const notAPnr = fc.string().filter((v) => !/^[A-Za-z0-9]{5,8}$/.test(v.trim()));
    const badLimit = fc.oneof(
      fc.integer({ max: 0 }),
      fc.integer({ min: 101 }),
      fc.double({ noInteger: true }),
      fc.string(),
    );
    fc.assert(
      fc.property(notABookingId, notAPnr, badLimit, (bookingId, pnr, limit) => {
        expect(getBookingRequest().safeParse({ booking_id: bookingId }).success).toBe(false);
        expect(getBookingRequest().safeParse({ pnr }).success).toBe(false);
        expect(
          getBookingRequest().safeParse({ booking_id: 'bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX', pnr: 'QXBTRV' })
            .success,
        ).toBe(false);
        expect(cancelBookingRequest().safeParse({ booking_id: bookingId }).success).toBe(false);
        expect(listBookingsRequest().safeParse({ limit }).success).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('booking create never accepts a wrong passenger type, title, gender, date or contact', () => {
    const body = (change: Record<string, unknown>, contact: Record<string, unknown> = {}) =>
      minimalBookingBody(change, contact);
    const wrong = fc.oneof(
      fc.record({ pax_type: fc.string().filter((v) => !['ADULT', 'CHILD', 'INFANT'].includes(v)) }),
      fc.record({ title: fc.string().filter((v) => !['mr', 'mrs', 'ms', 'miss', 'dr'].includes(v)) }),
      fc.record({ gender: fc.string().filter((v) => !['m', 'f', 'x'].includes(v)) }),
      fc.record({ born_on: fc.string().filter((v) => !/^\d{4}-\d{2}-\d{2}$/.test(v)) }),
      fc.record({ first_name: fc.constantFrom('', 'A'.repeat(36), '   ', '--') }),
    );
    fc.assert(
      fc.property(
        wrong,
        fc.string().filter((v) => !v.includes('@')),
        (change, email) => {
          expect(createBookingRequest().safeParse(body(change)).success).toBe(false);
          expect(createBookingRequest().safeParse(body({}, { email })).success).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
    expect(createBookingRequest().safeParse(body({})).success).toBe(true);
  });
});
