import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, sessionCookie } from '#shared/http/cookies.ts';

const session = (fields: string[]) => readCookie(fields, '__Host-session');

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
});

describe('fn: readCookie: the Cookie header as RFC 6265 §4.2.1 writes it', () => {
  const values = (fields: string[], names: string[]) => names.map((name) => readCookie(fields, name));
  const one = (value: string) => ({ kind: 'one', value });

  it('splits on ";" only, trimming white space around names and values', () => {
    expect(values(['a=1; b=2;c=3 ;  d = 4 '], ['a', 'b', 'c', 'd'])).toEqual([
      one('1'),
      one('2'),
      one('3'),
      one('4'),
    ]);
  });

  it('keeps a comma inside its value: "," separates nothing', () => {
    expect(values(['x=1,__Host-session=planted; y=2'], ['x', 'y'])).toEqual([
      one('1,__Host-session=planted'),
      one('2'),
    ]);
  });

  it('ignores a pair without "=" and empty pairs, and splits a value at the first "=" only', () => {
    expect(values(['flag; ; a=b=c;', ''], ['flag', 'a'])).toEqual([{ kind: 'absent' }, one('b=c')]);
  });

  it('reads every field', () => {
    expect(values(['a=1; b=2', 'c=3'], ['a', 'c'])).toEqual([one('1'), one('3')]);
  });
});

describe('fn: readCookie', () => {
  it('finds the one session cookie among others, in any field', () => {
    expect(session(['a=1; __Host-session=tok; b=2'])).toEqual({ kind: 'one', value: 'tok' });
    expect(session(['a=1', '__Host-session=tok'])).toEqual({ kind: 'one', value: 'tok' });
    expect(session(['a=1;__Host-session=tok'])).toEqual({ kind: 'one', value: 'tok' });
  });

  it('is absent without it, with an empty value, and for names that only look like it', () => {
    for (const fields of [
      [],
      [''],
      ['session=tok'],
      ['__Host-session='],
      ['__host-session=tok'],
      ['x__Host-session=tok'],
    ])
      expect(session(fields), JSON.stringify(fields)).toEqual({ kind: 'absent' });
  });

  it('never takes a session cookie smuggled inside another cookie’s value after a ","', () => {
    expect(session(['x=1,__Host-session=planted'])).toEqual({ kind: 'absent' });
    expect(session(['x=1,__Host-session=planted; __Host-session=own'])).toEqual({
      kind: 'one',
      value: 'own',
    });
    expect(session(['__Host-session=own; x=1, __Host-session=planted'])).toEqual({
      kind: 'one',
      value: 'own',
    });
  });

  it('answers "several" for two session cookies, in one field or in two, whatever their values', () => {
    expect(session(['__Host-session=first; __Host-session=second'])).toEqual({ kind: 'several' });
    expect(session(['__Host-session=first', '__Host-session=second'])).toEqual({ kind: 'several' });
    expect(session(['__Host-session=same', 'a=1; __Host-session=same'])).toEqual({ kind: 'several' });
    expect(session(['__Host-session=', '__Host-session=tok'])).toEqual({ kind: 'several' });
  });
});
