import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** A code is valid this long (docs/API.md §3.1). */
export const OTP_TTL_SECONDS = 300;
/** At most one send per identifier in this many seconds. */
export const RESEND_AFTER_SECONDS = 30;
/** At most this many sends per identifier in any rolling hour. */
export const MAX_SENDS_PER_HOUR = 5;
/** The wrong code with this number voids the challenge (429 TOO_MANY_ATTEMPTS). */
export const MAX_CODE_ATTEMPTS = 5;

/** Six digits, uniformly from a CSPRNG, zero-padded. */
export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * The only form in which a code is stored: HMAC-SHA256 keyed by the server's OTP key and bound to the
 * identifier and the challenge, so equal codes never give equal hashes and a leaked table reveals nothing.
 */
export function hashCode(
  key: Uint8Array,
  challenge: { identifier: string; challengeId: string },
  code: string,
): string {
  return createHmac('sha256', key)
    .update(`${challenge.identifier}\n${challenge.challengeId}\n${code}`)
    .digest('base64url');
}

/** Constant-time comparison of two code hashes; an empty one never matches. */
export function hashesMatch(expected: string, candidate: string): boolean {
  const a = Buffer.from(expected, 'base64url');
  const b = Buffer.from(candidate, 'base64url');
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}
