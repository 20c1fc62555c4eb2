import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCanonicalBase64url } from '#shared/base64url.ts';
import { respellings } from '#test/helpers/respell.ts';

describe('decodeCanonicalBase64url', () => {
  it('decodes the spelling Node writes', () => {
    expect(decodeCanonicalBase64url('AQI')).toEqual(Buffer.from([1, 2]));
    expect(decodeCanonicalBase64url('')).toEqual(Buffer.alloc(0));
  });

  it.each([
    ['padding', 'AQI='],
    ['double padding', 'AQ=='],
    ['the +/ alphabet', '+/8'],
    ['changed unused bits', 'AQJ'],
    ['a trailing space', 'AQI '],
    ['a leading space', ' AQI'],
    ['a dot', 'AQI.'],
    ['an impossible length', 'AQIDB'],
  ])('refuses %s', (_case, text) => {
    expect(decodeCanonicalBase64url(text)).toBeUndefined();
  });

  it('property: bytes round-trip, and every re-spelling of their text is refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64url');
        expect(decodeCanonicalBase64url(text)).toEqual(Buffer.from(bytes));
        for (const spelling of Object.values(respellings(text))) {
          expect(decodeCanonicalBase64url(spelling)).toBeUndefined();
        }
      }),
      { seed: 11, numRuns: 500 },
    );
  });
});
