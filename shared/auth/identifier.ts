import * as z from 'zod/mini';
import '../zod-locale.ts';

/** How a code reaches an agent. `SMS` is accepted on input as an alias of `PHONE`. */
export type IdentifierType = 'EMAIL' | 'PHONE';

/** E.164: `+`, then 8 to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{7,14}$/;
const MAX_EMAIL_LENGTH = 254;
/**
 * An e-mail address: zod's local part (ASCII letters, digits and `_'+-`, dot-separated), then a domain
 * of DNS labels (RFC 1035 §2.3.1, RFC 1123 §2.1): each 1-63 letters, digits or hyphens, never starting
 * or ending with a hyphen, and a top-level label of 2-63 letters. ASCII letters of either case, nothing
 * else: a look-alike such as the Kelvin sign `K` (U+212A), which lower-cases to `k`, is refused, not
 * turned into another address.
 */
const EMAIL =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `inner` (anchored) with any white space around it, which the service trims. */
const padded = (inner: RegExp) => `^\\s*(?:${inner.source.slice(1, -1)})\\s*$`;

/**
 * The two identifier forms as JSON Schema, for the OpenAPI document: exactly what the service accepts,
 * so a client validating against the document sends nothing the service refuses, and the service
 * accepts nothing the document refuses (test/unit/properties/identifiers.test.ts compares the two).
 * Surrounding white space is allowed by both and trimmed; the length counts it.
 */
export const IDENTIFIER_FORMS = {
  // No `format: email`: validators judge it on the raw text, where white space the service trims
  // would fail it. The pattern is the rule, and stricter than any `email` format.
  EMAIL: {
    type: 'string',
    pattern: padded(EMAIL),
    maxLength: MAX_EMAIL_LENGTH,
    description: `E-mail address, at most ${MAX_EMAIL_LENGTH} characters; surrounding white space is trimmed and the address lower-cased`,
  },
  PHONE: {
    type: 'string',
    pattern: padded(E164),
    description:
      'E.164 phone number: + then 8 to 15 digits, the first not 0; surrounding white space is trimmed',
  },
} as const;

type IdentifierResult =
  | { ok: true; identifier: string; type: IdentifierType }
  | { ok: false; message: string };

const messages = {
  EMAIL: `must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters`,
  PHONE: 'must be an E.164 phone number: + then 8 to 15 digits, e.g. +447400123456',
  either: 'must be an e-mail address or an E.164 phone number (+ then 8 to 15 digits)',
};

/**
 * Normalises an agent identifier the one way every entry point agrees on: trimmed, e-mail lower-cased,
 * phone strictly E.164. With `type`, the identifier must be of that type; without, it is inferred
 * (`+` and no `@` is a phone number, anything else an e-mail address).
 *
 * @example normalizeIdentifier('  Agent@Example.COM ', 'EMAIL') // { ok: true, identifier: 'agent@example.com', type: 'EMAIL' }
 */
export function normalizeIdentifier(raw: string, type?: IdentifierType): IdentifierResult {
  const trimmed = raw.trim();
  // An e-mail address may start with `+` (`+news@example.com`); only text without `@` is a number.
  const inferred: IdentifierType = trimmed.startsWith('+') && !trimmed.includes('@') ? 'PHONE' : 'EMAIL';
  const wanted = type ?? inferred;
  if (wanted === 'PHONE') {
    return E164.test(trimmed)
      ? { ok: true, identifier: trimmed, type: 'PHONE' }
      : { ok: false, message: type ? messages.PHONE : messages.either };
  }
  // Judged as sent (length with its white space, letters before lower-casing), as the document judges it.
  const valid = raw.length <= MAX_EMAIL_LENGTH && EMAIL.test(trimmed);
  return valid
    ? { ok: true, identifier: trimmed.toLowerCase(), type: 'EMAIL' }
    : { ok: false, message: type ? messages.EMAIL : messages.either };
}

/**
 * For a zod transform: the normalised identifier, or an issue on `identifier` (and `z.NEVER`).
 * send-otp passes the requested type; verify-otp lets it be inferred.
 */
export function identifierOrIssue(raw: string, type: IdentifierType | undefined, ctx: z.core.ParsePayload) {
  const result = normalizeIdentifier(raw, type);
  if (result.ok) return { identifier: result.identifier, type: result.type };
  // A zod/mini transform has no addIssue: the issue goes straight onto the payload.
  ctx.issues.push({ code: 'custom', path: ['identifier'], message: result.message, input: raw });
  return z.NEVER;
}
