import { describe, expect, it } from 'vitest';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';

describe('normalizeIdentifier', () => {
  it('trims and lower-cases an e-mail address', () => {
    expect(normalizeIdentifier('  Agent.Smith@Example.COM \n', 'EMAIL')).toEqual({
      ok: true,
      identifier: 'agent.smith@example.com',
      type: 'EMAIL',
    });
  });

  it('keeps an E.164 number as it is, trimmed', () => {
    expect(normalizeIdentifier(' +447700900123 ', 'PHONE')).toEqual({
      ok: true,
      identifier: '+447700900123',
      type: 'PHONE',
    });
  });

  it('infers the type when none is given', () => {
    expect(normalizeIdentifier('+14155550123')).toMatchObject({ ok: true, type: 'PHONE' });
    expect(normalizeIdentifier('a@b.example')).toMatchObject({ ok: true, type: 'EMAIL' });
    // Found by the HTTP fuzzer: an e-mail address may start with +; it is not a phone number.
    expect(normalizeIdentifier('+news@b.example')).toMatchObject({ ok: true, type: 'EMAIL' });
  });

  it.each([
    ['+1234567', 'seven digits'],
    ['+1234567890123456', 'sixteen digits'],
    ['+0441234567', 'a leading zero'],
    ['+44 7700 900123', 'spaces'],
    ['447700900123', 'no plus sign'],
    ['+44-7700-900123', 'hyphens'],
  ])('refuses %s as a phone number (%s)', (raw) => {
    expect(normalizeIdentifier(raw, 'PHONE')).toMatchObject({ ok: false });
  });

  it('accepts 8 and 15 digits, the E.164 bounds', () => {
    expect(normalizeIdentifier('+12345678', 'PHONE').ok).toBe(true);
    expect(normalizeIdentifier('+123456789012345', 'PHONE').ok).toBe(true);
  });

  it.each([
    ['not-an-address'],
    ['two@@example.com'],
    ['spaces in@example.com'],
    [`${'a'.repeat(243)}@example.com`],
  ])('refuses %s as an e-mail address', (raw) => {
    expect(normalizeIdentifier(raw, 'EMAIL')).toMatchObject({ ok: false });
  });

  it('accepts an address of exactly 254 characters', () => {
    const address = `${'a'.repeat(242)}@example.com`;
    expect(address).toHaveLength(254);
    expect(normalizeIdentifier(address, 'EMAIL')).toMatchObject({ ok: true });
  });

  it('refuses a value of the other type, with a message naming the expected one', () => {
    const asEmail = normalizeIdentifier('+447700900123', 'EMAIL');
    const asPhone = normalizeIdentifier('agent@example.com', 'PHONE');

    expect(asEmail).toEqual({ ok: false, message: expect.stringContaining('e-mail address') });
    expect(asPhone).toEqual({ ok: false, message: expect.stringContaining('E.164') });
  });
});
