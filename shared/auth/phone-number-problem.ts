import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { PHONE_RANGES } from '../phone-ranges.ts';
import { PHONE_METADATA } from './phone-metadata.ts';

/** The number types a code may be texted to: numbers that exist and reach a person's line. */
const TEXTABLE_TYPES = /* @__PURE__ */ new Set(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

/**
 * Why the service will not text `phone` (E.164, already normalised), or undefined when it may: its
 * country is not allowed; it is not a mobile or fixed-line number of that country's numbering plan
 * (libphonenumber's metadata, shared/auth/phone-metadata.ts: `+10000000` or a UK drama number such as
 * `+447700900123` exists in no plan); or it is in a refused range. Country calling codes are
 * prefix-free, so at most one of the allowed codes matches.
 *
 * @example phoneNumberProblem('+447400123456', ['44']) // undefined
 */
export function phoneNumberProblem(
  phone: string,
  allowedCountryCodes: readonly string[],
): string | undefined {
  const digits = phone.slice(1);
  const code = allowedCountryCodes.find((c) => digits.startsWith(c));
  const countries = allowedCountryCodes.map((c) => `+${c}`).join(', ');
  if (code === undefined) return `must be a phone number in a country this service texts (${countries})`;
  const national = digits.slice(code.length);
  const range = Object.keys(PHONE_RANGES[code]?.refused ?? {}).find((prefix) => national.startsWith(prefix));
  if (range !== undefined)
    return `must not be a premium-rate, shared-cost or personal number (+${code} ${range}…)`;
  const parsed = parsePhoneNumberFromString(phone, PHONE_METADATA);
  const type = parsed?.isValid() ? parsed.getType() : undefined;
  return type !== undefined && TEXTABLE_TYPES.has(type)
    ? undefined
    : `must be a mobile or fixed-line number that exists in +${code}'s numbering plan`;
}
