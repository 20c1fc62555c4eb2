import * as z from 'zod/mini';
import '../zod-locale.ts';

/** How a code reaches an agent. `SMS` is accepted on input as an alias of `PHONE`. */
export type IdentifierType = 'EMAIL' | 'PHONE';

/** E.164: `+`, then 8 to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{7,14}$/;
const MAX_EMAIL_LENGTH = 254;
const emailFormat = z.email();

/**
 * The two identifier forms as JSON Schema, for the OpenAPI document: exactly what the service accepts
 * after trimming (and, for e-mail, lower-casing), so a client validating against the document sends
 * nothing the service refuses.
 */
export const IDENTIFIER_FORMS = {
  EMAIL: {
    type: 'string',
    format: 'email',
    // The pattern emailFormat checks (zod's own); `z.regexes` would bundle every pattern zod has.
    pattern: emailFormat.def.pattern?.source,
    maxLength: MAX_EMAIL_LENGTH,
    description: `E-mail address, at most ${MAX_EMAIL_LENGTH} characters (sent trimmed and lower-cased)`,
  },
  PHONE: {
    type: 'string',
    pattern: E164.source,
    description: 'E.164 phone number: + then 8 to 15 digits, the first not 0',
  },
} as const;

export type IdentifierResult =
  | { ok: true; identifier: string; type: IdentifierType }
  | { ok: false; message: string };

const messages = {
  EMAIL: `must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters`,
  PHONE: 'must be an E.164 phone number: + then 8 to 15 digits, e.g. +447700900123',
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
  const email = trimmed.toLowerCase();
  const valid = email.length <= MAX_EMAIL_LENGTH && emailFormat.safeParse(email).success;
  return valid
    ? { ok: true, identifier: email, type: 'EMAIL' }
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
