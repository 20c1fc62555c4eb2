import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateCode, hashCode, hashesMatch } from '#shared/auth/otp-code.ts';

const key = randomBytes(32);
const challenge = { identifier: 'agent@example.com', challengeId: 'c1' };

describe('generateCode', () => {
  it('gives six digits, zero-padded', () => {
    for (let i = 0; i < 1000; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it('spreads over the whole range (leading zeros included)', () => {
    const firstDigits = new Set(Array.from({ length: 2000 }, () => generateCode()[0]));
    expect(firstDigits.size).toBe(10);
  });
});

describe('hashCode', () => {
  it('is deterministic for the same key, challenge and code', () => {
    expect(hashCode(key, challenge, '123456')).toBe(hashCode(key, challenge, '123456'));
  });

  it('gives a 256-bit base64url HMAC that does not contain the code', () => {
    const hash = hashCode(key, challenge, '123456');
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('123456');
  });

  it('differs for another code, challenge, identifier or key', () => {
    const base = hashCode(key, challenge, '123456');
    expect(hashCode(key, challenge, '123457')).not.toBe(base);
    expect(hashCode(key, { ...challenge, challengeId: 'c2' }, '123456')).not.toBe(base);
    expect(hashCode(key, { ...challenge, identifier: 'other@example.com' }, '123456')).not.toBe(base);
    expect(hashCode(randomBytes(32), challenge, '123456')).not.toBe(base);
  });
});

describe('hashesMatch', () => {
  it('matches equal hashes only', () => {
    const a = hashCode(key, challenge, '000001');
    expect(hashesMatch(a, a)).toBe(true);
    expect(hashesMatch(a, hashCode(key, challenge, '000002'))).toBe(false);
  });

  it('refuses hashes of another length, or empty ones, without throwing', () => {
    expect(hashesMatch(hashCode(key, challenge, '000001'), 'short')).toBe(false);
    expect(hashesMatch('', '')).toBe(false);
  });
});
