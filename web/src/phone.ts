/**
 * Phone numbers as agents type them (docs/console.md, Forgiving input): spaces, dots, dashes, slashes
 * and brackets are only grouping, so they go; `00` before the country code is the same as `+`; a
 * `(0)` after the country code (`+44 (0)20 …`) is the trunk prefix no E.164 number carries. What is
 * left is sent: the service says plainly what is still wrong (no country code, too short).
 */
export function normalisePhone(typed: string): string {
  const text = typed.trim().replace(/^(\+\d{1,3})\s*\(0\)/, '$1');
  const digits = text.replace(/[\s.\-/()]/g, '');
  return digits.startsWith('00') ? `+${digits.slice(2)}` : digits;
}

/**
 * A sign-in identifier as typed: digits with a `+` and grouping only are a phone number, normalised
 * ({@link normalisePhone}); anything else is an e-mail address, trimmed.
 */
export function identifierOf(typed: string): { identifier: string; type: 'EMAIL' | 'PHONE' } {
  const trimmed = typed.trim();
  if (/^[+\d\s.\-/()]+$/.test(trimmed) && /\d/.test(trimmed))
    return { identifier: normalisePhone(trimmed), type: 'PHONE' };
  return { identifier: trimmed, type: 'EMAIL' };
}
