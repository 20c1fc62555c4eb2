import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHONE_METADATA } from '#shared/auth/phone-metadata.ts';
import { phoneNumberProblem } from '#shared/auth/phone-number-problem.ts';
import { KNOWN_COUNTRY_CODES } from '#shared/phone-ranges.ts';
import { phoneMetadataSource } from '../../../infra/data/phone-metadata.ts';

describe('phoneNumberProblem: numbers that exist in an allowed country', () => {
  it.each([
    ['a UK mobile', '+447400123456'],
    ['a London number', '+442079460000'],
    ['a US number', '+12025550123'],
    ['a Canadian number', '+14165550123'],
    ['a French mobile', '+33612345678'],
    ['a Paris number', '+33123456789'],
    ['a German mobile', '+4915123456789'],
    ['a Berlin number', '+4930123456'],
    ['an Irish mobile', '+353851234567'],
    ['a Dublin number', '+35312345678'],
  ])('accepts %s (%s)', (_case, phone) => {
    expect(phoneNumberProblem(phone, KNOWN_COUNTRY_CODES)).toBeUndefined();
  });

  it.each([
    ['+10000000', '+1'],
    ['+100000000000000', '+1'],
    ['+1935062560', '+1'],
    ['+447700900123', '+44'],
    ['+447700900999', '+44'],
    ['+33000000000', '+33'],
    ['+4900000000', '+49'],
    ['+35300000000', '+353'],
  ])('refuses %s: in no numbering plan of %s', (phone, code) => {
    expect(phoneNumberProblem(phone, KNOWN_COUNTRY_CODES)).toBe(
      `must be a mobile or fixed-line number that exists in ${code}'s numbering plan`,
    );
  });

  it.each([
    ['a US toll-free number', '+18005550123'],
    ['a UK freephone number', '+448001234567'],
    ['a French freephone number', '+33800123456'],
  ])('refuses %s (%s): no person’s line receives the code', (_case, phone) => {
    expect(phoneNumberProblem(phone, KNOWN_COUNTRY_CODES)).toMatch(/mobile or fixed-line|premium-rate/);
  });

  it('names the allowed countries for a number of another country, valid there or not', () => {
    expect(phoneNumberProblem('+861391234567', ['44', '353'])).toBe(
      'must be a phone number in a country this service texts (+44, +353)',
    );
    expect(phoneNumberProblem('+447400123456', ['1'])).toBe(
      'must be a phone number in a country this service texts (+1)',
    );
  });
});

describe('the phone metadata snapshot', () => {
  it('is what npm run phone-metadata makes from the installed libphonenumber-js', () => {
    expect(readFileSync('shared/auth/phone-metadata.ts', 'utf8')).toBe(phoneMetadataSource());
  });

  it('holds only the country calling codes a stage may allow', () => {
    expect(Object.keys(PHONE_METADATA.country_calling_codes).sort()).toEqual([...KNOWN_COUNTRY_CODES].sort());
  });
});
