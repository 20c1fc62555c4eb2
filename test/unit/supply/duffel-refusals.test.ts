import { describe, expect, it } from 'vitest';
import { createLogger } from '#shared/log.ts';
import { DuffelRefusal, secondsUntilReset } from '#shared/supply/duffel/client.ts';
import { refusalError, searchFieldPath } from '#shared/supply/duffel/refusals.ts';
import { captureLogLines } from '#test/helpers/log-capture.ts';

const log = createLogger('info');
const refusal = (
  status: number,
  ...errors: { type: string; code: string; message?: string; field?: string }[]
) =>
  new DuffelRefusal(
    status,
    errors.map((e) => ({
      type: e.type,
      code: e.code,
      title: e.code,
      message: e.message ?? e.code,
      documentation_url: '',
      ...(e.field && { source: { field: e.field } }),
    })),
  );
const noPath = () => undefined;

describe('Duffel refusals as the API’s errors', () => {
  it('maps the offer gone, booked or missing', () => {
    expect(
      refusalError(refusal(422, { type: 'invalid_state_error', code: 'already_booked' }), noPath, log).code,
    ).toBe('OFFER_EXPIRED');
    expect(
      refusalError(refusal(422, { type: 'airline_error', code: 'offer_no_longer_available' }), noPath, log)
        .code,
    ).toBe('SOLD_OUT');
    expect(
      refusalError(refusal(404, { type: 'invalid_request_error', code: 'not_found' }), noPath, log).code,
    ).toBe('SOLD_OUT');
  });

  it('maps validation errors on fields we can name to 400 on ours, every other refusal to 422', () => {
    const search = refusal(422, {
      type: 'validation_error',
      code: 'invalid_airport',
      message: 'unknown airport',
      field: 'slices[0].destination',
    });
    const mixed = refusal(
      422,
      { type: 'validation_error', code: 'invalid_date', field: 'slices[1].departure_date' },
      { type: 'validation_error', code: 'unsupported', field: 'private_fares' },
    );

    expect(refusalError(search, searchFieldPath, log)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'destination', message: 'unknown airport' }],
    });
    expect(refusalError(mixed, searchFieldPath, log)).toMatchObject({
      code: 'SUPPLIER_REJECTED',
      details: [{ path: 'return_date', message: 'invalid_date' }, { message: 'unsupported' }],
    });
    expect(refusalError(mixed, (field) => searchFieldPath(field, true), log)).toMatchObject({
      details: [{ path: 'slices.1.departure_date', message: 'invalid_date' }, { message: 'unsupported' }],
    });
  });

  it('maps a refusal of a multi-city search’s slices as a whole to 400 on slices, and only for multi-city', () => {
    const tooMany = refusal(422, {
      type: 'validation_error',
      code: 'too_many_slices',
      message: 'Too many slices: search fewer journeys.',
      field: 'slices',
    });

    expect(refusalError(tooMany, (field) => searchFieldPath(field, true), log)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'slices', message: 'Too many slices: search fewer journeys.' }],
    });
    expect(refusalError(tooMany, searchFieldPath, log).code).toBe('SUPPLIER_REJECTED');
  });

  it('answers a refused token 503 (our configuration, not the client’s), logging it for the operator', () => {
    const lines: string[] = [];
    const release = captureLogLines((line) => lines.push(line));
    try {
      const error = refusalError(
        refusal(401, { type: 'authentication_error', code: 'invalid_token' }),
        noPath,
        log,
      );
      expect(error.code).toBe('SERVICE_UNAVAILABLE');
      expect(error.headers['Retry-After']).toBe('60');
    } finally {
      release();
    }
    expect(lines.join()).toContain('duffel refused the access token');
  });

  it('reads ratelimit-reset as an HTTP date or as epoch seconds', () => {
    const now = Date.UTC(2026, 11, 1, 9, 0, 0);
    expect(secondsUntilReset('Tue, 01 Dec 2026 09:00:30 GMT', now)).toBe(30);
    expect(secondsUntilReset(String(now / 1000 + 12), now)).toBe(12);
    expect(secondsUntilReset('Tue, 01 Dec 2026 08:59:00 GMT', now)).toBe(1);
    expect(secondsUntilReset('soon', now)).toBeUndefined();
    expect(secondsUntilReset(null, now)).toBeUndefined();
  });
});
