import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { pageBelow } from '#shared/console/lambda.ts';

/** A document holding `html`'s `console-base` meta, as far as the console reads one. */
const page = (html: string) => ({
  querySelector: (selector: string) => {
    expect(selector).toBe('meta[name="console-base"]');
    const content = /<meta name="console-base" content="([^"]*)">/.exec(html)?.[1];
    return content === undefined ? null : ({ content } as HTMLMetaElement);
  },
});

const built =
  '<!doctype html><html lang="en"><head><script src="/assets/main-AB12.js"></script></head></html>';

/**
 * web/src/base.ts as the console loads it on a page of `html`: it reads the page's base once, when
 * the module is evaluated, so each page gets the module anew.
 */
async function consoleOn(html: string) {
  vi.stubGlobal('document', page(html));
  vi.resetModules();
  return import('../../../web/src/base.ts');
}
const below = (base: string) => consoleOn(pageBelow(built, base));

afterEach(() => {
  vi.unstubAllGlobals();
});
// The files after this one in its worker load the module anew, outside any page, not as the last test's.
afterAll(() => {
  vi.resetModules();
});

describe('console base (the stage the page is served below)', () => {
  it('reads the base the serving function writes, and none from a page served at the root', async () => {
    expect((await below('/dev')).BASE).toBe('/dev');
    expect((await below('/v1/console')).BASE).toBe('/v1/console');
    expect((await consoleOn(built)).BASE).toBe('');
  });

  it('takes a base that is no plain path as none', async () => {
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
      expect((await consoleOn(`<meta name="console-base" content="${content}">`)).BASE, content).toBe('');
  });

  it('puts app addresses below the base, and the API with them', async () => {
    const { address } = await below('/dev');
    expect(address('/bookings?status=HELD')).toBe('/dev/bookings?status=HELD');
    expect(address('/api/flights/search')).toBe('/dev/api/flights/search');
    expect((await consoleOn(built)).address('/bookings')).toBe('/bookings');
  });

  it('reads the app path from the browser path below the base', async () => {
    const { appPath } = await below('/dev');
    expect(appPath('/dev/bookings/bkg_1')).toBe('/bookings/bkg_1');
    expect(appPath('/dev')).toBe('/');
    expect(appPath('/dev/')).toBe('/');
    expect((await consoleOn(built)).appPath('/search')).toBe('/search');
    // Only a whole segment is the base: `/developers` is not `/dev` + `elopers`.
    expect(appPath('/developers')).toBe('/developers');
    expect(appPath('/search')).toBe('/search');
  });

  it('round-trips every screen address', async () => {
    const { address, appPath } = await below('/dev');
    for (const path of [
      '/',
      '/sign-in',
      '/search',
      '/book',
      '/bookings',
      '/bookings/bkg_1',
      '/agency/agents',
    ])
      expect(appPath(address(path))).toBe(path);
  });
});
