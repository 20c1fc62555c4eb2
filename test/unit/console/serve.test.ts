import { describe, expect, it } from 'vitest';
import { type ConsoleFiles, consoleResponse } from '#shared/console/serve.ts';
import { CONSOLE_CSP, consolePageHeaders } from '#test/helpers/console-headers.ts';

const files: ConsoleFiles = new Map([
  ['index.html', { contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>console</title>' }],
  ['assets/main-ABC123.js', { contentType: 'text/javascript; charset=utf-8', body: 'console.log(1)' }],
  ['assets/main-DEF456.css', { contentType: 'text/css; charset=utf-8', body: 'body{}' }],
]);

const screens = [
  '/',
  '/sign-in',
  '/search',
  '/book',
  '/bookings',
  '/bookings/bkg_01KB2X3Y4Z',
  '/agency/agents',
  '/agency/webhooks',
];

describe('serving the console', () => {
  it.each(screens)('answers the screen address %s with the page, never cached without asking', (path) => {
    const answer = consoleResponse(path, files);

    expect(answer).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        'Content-Security-Policy': CONSOLE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Permissions-Policy': consolePageHeaders()['Permissions-Policy'],
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Resource-Policy': 'same-origin',
        Vary: 'Accept-Encoding, Cookie',
      },
      body: '<!doctype html><title>console</title>',
    });
  });

  it('sends the strict policy of the contract: nothing inline, nothing from another origin', () => {
    expect(consolePageHeaders()['Content-Security-Policy']).toBe(CONSOLE_CSP);
  });

  it('denies the page the powerful features it never uses, its clipboard copy button aside', () => {
    const policy = consolePageHeaders()['Permissions-Policy'] ?? '';
    const denied = policy.split(', ');

    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi'])
      expect(denied, feature).toContain(`${feature}=()`);
    for (const entry of denied) expect(entry).toMatch(/^[a-z-]+=\(\)$/);
    expect(policy).not.toMatch(/clipboard/);
  });

  it('answers a hashed asset with its type, cached for a year, and the same security headers', () => {
    const answer = consoleResponse('/assets/main-ABC123.js', files);

    expect(answer?.statusCode).toBe(200);
    expect(answer?.body).toBe('console.log(1)');
    expect(answer?.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Permissions-Policy': consolePageHeaders()['Permissions-Policy'],
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      Vary: 'Accept-Encoding',
    });
    expect(consoleResponse('/assets/main-DEF456.css', files)?.headers['Content-Type']).toBe(
      'text/css; charset=utf-8',
    );
  });

  it.each([
    '/api/flights/search',
    '/openapi.json',
    '/docs',
    '/index.html',
    '/assets/',
    '/assets/nope.js',
    '/assets/../index.html',
    '/assets/%2e%2e/index.html',
    '/assets/__proto__',
    '/assets/constructor',
    '/assets/assets/main-ABC123.js',
    '/search/',
    '/bookings/',
    '/bookings/a/b',
    '/agency',
    '/agency/other',
    '/SEARCH',
  ])('leaves %s to the caller: not the console', (path) => {
    expect(consoleResponse(path, files)).toBeUndefined();
  });
});
