import { describe, expect, it } from 'vitest';
import { pageBelow } from '#shared/console/lambda.ts';
import { baseOf, withBase, withoutBase } from '../../../web/src/base.ts';

/** A document holding `html`'s `console-base` meta, as far as baseOf reads one. */
const page = (html: string) => ({
  querySelector: (selector: string) => {
    expect(selector).toBe('meta[name="console-base"]');
    const content = /<meta name="console-base" content="([^"]*)">/.exec(html)?.[1];
    return content === undefined ? null : ({ content } as HTMLMetaElement);
  },
});

const built =
  '<!doctype html><html lang="en"><head><script src="/assets/main-AB12.js"></script></head></html>';

describe('console base (the stage the page is served below)', () => {
  it('reads the base the serving function writes, and none from a page served at the root', () => {
    expect(baseOf(page(pageBelow(built, '/dev')) as unknown as Document)).toBe('/dev');
    expect(baseOf(page(pageBelow(built, '/v1/console')) as unknown as Document)).toBe('/v1/console');
    expect(baseOf(page(built) as unknown as Document)).toBe('');
  });

  it('takes a base that is no plain path as none', () => {
    for (const content of [
      '',
      '/',
      'dev',
      '//evil.example',
      'https://evil.example',
      '/dev/',
      '/a b',
      '/dev?x',
    ])
      expect(baseOf(page(`<meta name="console-base" content="${content}">`) as unknown as Document)).toBe('');
  });

  it('puts app addresses below the base, and the API with them', () => {
    expect(withBase('/dev', '/bookings?status=HELD')).toBe('/dev/bookings?status=HELD');
    expect(withBase('/dev', '/api/flights/search')).toBe('/dev/api/flights/search');
    expect(withBase('', '/bookings')).toBe('/bookings');
  });

  it('reads the app path from the browser path below the base', () => {
    expect(withoutBase('/dev', '/dev/bookings/bkg_1')).toBe('/bookings/bkg_1');
    expect(withoutBase('/dev', '/dev')).toBe('/');
    expect(withoutBase('/dev', '/dev/')).toBe('/');
    expect(withoutBase('', '/search')).toBe('/search');
    // Only a whole segment is the base: `/developers` is not `/dev` + `elopers`.
    expect(withoutBase('/dev', '/developers')).toBe('/developers');
    expect(withoutBase('/dev', '/search')).toBe('/search');
  });

  it('round-trips every screen address', () => {
    for (const path of [
      '/',
      '/sign-in',
      '/search',
      '/book',
      '/bookings',
      '/bookings/bkg_1',
      '/agency/agents',
    ])
      expect(withoutBase('/dev', withBase('/dev', path))).toBe(path);
  });
});
