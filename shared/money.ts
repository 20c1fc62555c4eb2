/**
 * Money as the service keeps it: integer minor units of an ISO 4217 currency. Amounts cross the API in
 * major units with at most 2 decimals (docs/API.md §1), and suppliers send them as decimal strings;
 * neither goes through a float on the way in.
 */

/** ISO 4217 currencies without minor units; every other currency the service sells has two. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Currencies with three decimals: the API's 2-decimal money cannot carry them. */
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Decimal places of `currency`'s minor unit (0 or 2), or undefined for one the API cannot carry. */
function currencyExponent(currency: string): 0 | 2 | undefined {
  if (!/^[A-Z]{3}$/.test(currency) || THREE_DECIMAL.has(currency)) return undefined;
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/** Minor units as the API's major-unit number (`41240` EUR → `412.4`). */
export function toMajor(minor: number, currency: string): number {
  return (currencyExponent(currency) ?? 2) === 0 ? minor : minor / 100;
}

/**
 * A decimal string (`"412.40"`, `"412.4"`, `"9800"`) in `currency` as integer minor units, read digit by
 * digit; undefined when it is not a plain non-negative decimal or has more decimals than the currency.
 *
 * @example minorUnits('412.40', 'EUR') // 41240
 */
export function minorUnits(amount: string, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount);
  if (exponent === undefined || !match) return undefined;
  const [, whole = '', fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > exponent) return undefined;
  return Number(whole) * 10 ** exponent + Number(trimmed.padEnd(exponent, '0') || '0');
}

/** Minor units as the decimal string suppliers take (`41240` EUR → `"412.40"`). */
export function decimalAmount(minor: number, currency: string): string {
  // A negative amount (money back) as Duffel writes one: the sign, then the amount.
  if (minor < 0) return `-${decimalAmount(-minor, currency)}`;
  const exponent = currencyExponent(currency) ?? 2;
  if (exponent === 0) return String(minor);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** Whether two amounts in major units are the same money: same currency, same minor units (never floats). */
export const sameMoney = (a: { amount: number; currency: string }, b: { amount: number; currency: string }) =>
  a.currency === b.currency &&
  minorUnits(String(a.amount), a.currency) === minorUnits(String(b.amount), b.currency);
