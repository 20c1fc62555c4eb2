import { describe, expect, it } from 'vitest';
import { identifierOf, normalisePhone } from '../../../web/src/phone.ts';

describe('fn: normalisePhone', () => {
  it('takes out the spaces, dots, dashes, slashes and brackets people group a number with', () => {
    expect(normalisePhone(' +44 7700 900123 ')).toBe('+447700900123');
    expect(normalisePhone('+1 (212) 555-0123')).toBe('+12125550123');
    expect(normalisePhone('+33.6.12.34.56.78')).toBe('+33612345678');
    expect(normalisePhone('+49 30/1234567')).toBe('+49301234567');
  });

  it('reads 00 as + and drops the (0) trunk prefix after the country code', () => {
    expect(normalisePhone('0044 7700 900123')).toBe('+447700900123');
    expect(normalisePhone('+44 (0)20 7946 0958')).toBe('+442079460958');
  });

  it('leaves what is not grouping for the service to refuse plainly', () => {
    expect(normalisePhone('07700 900123')).toBe('07700900123');
    expect(normalisePhone('+44 7700 CALLME')).toBe('+447700CALLME');
  });
});

describe('fn: identifierOf', () => {
  it('reads digits with grouping as a phone number, normalised, and anything else as an e-mail address', () => {
    expect(identifierOf(' +44 7700-900 123 ')).toEqual({ identifier: '+447700900123', type: 'PHONE' });
    expect(identifierOf(' Grace@Example.com ')).toEqual({ identifier: 'Grace@Example.com', type: 'EMAIL' });
    expect(identifierOf('grace')).toEqual({ identifier: 'grace', type: 'EMAIL' });
  });
});
