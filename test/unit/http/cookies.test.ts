import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, sessionCookie } from '#shared/http/cookies.ts';

describe('session cookie', () => {
  it('carries every attribute of docs/API.md §3.2', () => {
    expect(sessionCookie('abc.def.ghi', 3600)).toBe(
      '__Host-session=abc.def.ghi; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600',
    );
  });

  it('is cleared with the same attributes and Max-Age=0', () => {
    expect(clearedSessionCookie()).toBe(
      '__Host-session=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0',
    );
  });

  it('is read from a Cookie header among others', () => {
    expect(readCookie('a=1; __Host-session=tok; b=2', '__Host-session')).toBe('tok');
    expect(readCookie('session=tok', '__Host-session')).toBeUndefined();
    expect(readCookie('__Host-session=', '__Host-session')).toBeUndefined();
    expect(readCookie(undefined, '__Host-session')).toBeUndefined();
  });

  it('is read from any of several Cookie fields, separate or joined with ", " (HTTP/2 clients)', () => {
    expect(readCookie(['a=1', '__Host-session=tok'], '__Host-session')).toBe('tok');
    expect(readCookie('a=1, __Host-session=tok', '__Host-session')).toBe('tok');
    expect(readCookie(['a=1; b=2', 'c=3, __Host-session=tok; d=4'], '__Host-session')).toBe('tok');
    expect(readCookie(['__Host-session=first', '__Host-session=second'], '__Host-session')).toBe('first');
    expect(readCookie([], '__Host-session')).toBeUndefined();
  });
});
