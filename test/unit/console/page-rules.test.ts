import { describe, expect, it } from 'vitest';
import { CONSOLE_SCREENS } from '../../../shared/console/screens.ts';
import { attemptFor, type Failure, fieldErrors, validationSummary } from '../../../web/src/api.ts';
import { safeNext, screenAt } from '../../../web/src/router.ts';
import { codeDigits } from '../../../web/src/session.ts';

const validation = (details: unknown): Failure => ({
  status: 400,
  code: 'VALIDATION_ERROR',
  message: 'The request is not valid.',
  details,
  requestId: 'req-1',
});

describe('console page rules', () => {
  it('returns after sign-in only to a screen of this site, never to another origin', () => {
    expect(safeNext('/bookings/bkg_1?x=1')).toBe('/bookings/bkg_1?x=1');
    expect(safeNext('/bookings?status=HELD')).toBe('/bookings?status=HELD');
    expect(safeNext('/book')).toBe('/book');
    expect(safeNext('/agency/agents')).toBe('/agency/agents');
    for (const hostile of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '',
      null,
    ])
      expect(safeNext(hostile)).toBe('/search');
  });

  it('takes as a return address every screen of a signed-in agent in the one list, and no sign-in screen', () => {
    const signedIn = CONSOLE_SCREENS.filter((screen) => screen.who !== 'anyone');
    for (const { path } of signedIn) {
      const address = path.replace('{booking_id}', 'bkg_1');
      expect(safeNext(address)).toBe(address);
    }
    expect(signedIn.length).toBeGreaterThan(5);
    expect(safeNext('/sign-in')).toBe('/search');
    expect(safeNext('/')).toBe('/search');
  });

  it('finds each address’s screen in the one list, with its parameter decoded, and no screen elsewhere', () => {
    for (const screen of CONSOLE_SCREENS)
      expect(screenAt(screen.path.replace('{booking_id}', 'bkg_1'))?.screen).toEqual(screen);
    expect(screenAt('/bookings/bkg%201')?.params).toEqual(['bkg 1']);
    expect(screenAt('/agency/agents')?.screen.who).toBe('ADMIN');
    for (const none of ['/nowhere', '/bookings/a/b', '/bookings/%E0%A4%A', '/agency/other', '/search/'])
      expect(screenAt(none)).toBeUndefined();
  });

  it('reads a crafted next as the browser would, and goes to search for anything but a known screen', () => {
    for (const crafted of [
      '/\t/evil.example/x',
      '/\r\n/evil.example/x',
      '/\n/x',
      '/%E0%A4%A',
      '/bookings/%E0%A4%A',
      '/bookings/%',
      '/bookings/a/b',
      '/nowhere',
      '/search/../../x',
      ' /search',
    ])
      expect(safeNext(crafted)).toBe('/search');
    expect(safeNext('/bookings/bkg%201')).toBe('/bookings/bkg%201');
  });

  it('places each VALIDATION_ERROR detail by its path, first message per field', () => {
    const errors = fieldErrors(
      validation([
        { path: 'passengers.0.born_on', message: 'must be in the past' },
        { path: 'passengers.0.born_on', message: 'second message' },
        { path: 'contact.email', message: 'must be an e-mail address' },
        { message: 'no path' },
        'not an object',
      ]),
    );

    expect([...errors]).toEqual([
      ['passengers.0.born_on', 'must be in the past'],
      ['contact.email', 'must be an e-mail address'],
    ]);
    expect(fieldErrors({ ...validation([]), code: 'SOLD_OUT' }).size).toBe(0);
    expect(fieldErrors(undefined).size).toBe(0);
  });

  it('names in the summary only the problems no field on the screen shows', () => {
    const errors = new Map([
      ['origin', 'unknown airport'],
      ['passengers', 'must be exactly the searched passengers'],
    ]);

    expect(validationSummary(errors, () => true)).toBe(
      'Some fields need a change: see the messages beside them.',
    );
    expect(validationSummary(errors, (path) => path === 'origin')).toBe(
      'passengers: must be exactly the searched passengers',
    );
  });

  it('takes a pasted code with spaces or dashes as its six digits', () => {
    expect(codeDigits(' 123 456 ')).toBe('123456');
    expect(codeDigits('123-456')).toBe('123456');
    expect(codeDigits('1234567')).toBe('123456');
    expect(codeDigits('abc')).toBe('');
  });

  it('sends the same body again under the same Idempotency-Key, and a changed body under a new one', () => {
    let made = 0;
    const newKey = () => `key-${++made}`;

    const first = attemptFor(undefined, '{"a":1}', newKey);
    const again = attemptFor(first, '{"a":1}', newKey);
    const changed = attemptFor(again, '{"a":2}', newKey);

    expect(first).toEqual({ body: '{"a":1}', key: 'key-1' });
    expect(again.key).toBe('key-1');
    expect(changed).toEqual({ body: '{"a":2}', key: 'key-2' });
  });
});
