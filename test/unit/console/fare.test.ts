import { describe, expect, it } from 'vitest';
import { baggageLine, conditionsText, holdLengthText, priceRow } from '../../../web/src/fare.ts';

describe('fn: conditionsText', () => {
  it('says each condition with its fee, free where the fee is 0, and leaves out what the supplier does not state', () => {
    expect(
      conditionsText({
        refund_before_departure: { allowed: true, penalty: { amount: 50, currency: 'EUR' } },
        change_before_departure: { allowed: true, penalty: { amount: 0, currency: 'EUR' } },
      }),
    ).toEqual([
      { text: 'Refundable (fee €50.00)', good: true },
      { text: 'Changes allowed (free)', good: true },
    ]);
    expect(
      conditionsText({
        refund_before_departure: { allowed: false, penalty: null },
        change_before_departure: null,
      }),
    ).toEqual([{ text: 'Not refundable', good: false }]);
    expect(conditionsText(undefined)).toEqual([]);
  });
});

describe('fn: priceRow', () => {
  it('writes a passenger type’s base, taxes and total, and a dash where the supplier does not split them', () => {
    expect(priceRow({ pax_type: 'ADULT', count: 2, base: 300, taxes: 112.4, total: 824.8 }, 'EUR')).toEqual({
      who: '2 adults',
      base: '€300.00',
      taxes: '€112.40',
      total: '€824.80',
    });
    expect(priceRow({ pax_type: 'INFANT', count: 1, base: null, taxes: null, total: 20 }, 'GBP')).toEqual({
      who: '1 infant',
      base: '–',
      taxes: '–',
      total: '£20.00',
    });
  });
});

describe('fn: baggageLine', () => {
  it('says the bags included per passenger type, and none where none are', () => {
    expect(
      baggageLine([
        { pax_type: 'ADULT', carry_on: 1, checked: 2 },
        { pax_type: 'CHILD', carry_on: 1, checked: 1 },
        { pax_type: 'INFANT', carry_on: 0, checked: 0 },
      ]),
    ).toBe('adult: 1 carry-on, 2 checked bags; child: 1 carry-on, 1 checked bag; infant: no bags included');
  });
});

describe('fn: holdLengthText', () => {
  it('writes a hold’s length in hours and minutes', () => {
    expect(holdLengthText(24 * 3600_000)).toBe('24 hours');
    expect(holdLengthText(3600_000)).toBe('1 hour');
    expect(holdLengthText(5.5 * 3600_000 + 59_000)).toBe('5 hours 30 minutes');
  });
});
