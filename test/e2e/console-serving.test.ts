import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consolePageHeaders } from '#test/helpers/console-headers.ts';
import { sharedServer } from '#test/helpers/shared-server.ts';

const server = sharedServer();

describe('e2e: npm start serves the agent console', () => {
  it('answers / and every screen address with the page and its strict headers', async () => {
    for (const path of ['/', '/sign-in', '/search', '/bookings/bkg_01KB2X3Y4Z', '/agency/webhooks']) {
      const response = await fetch(`${server.url}${path}`);

      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(response.headers.get('content-security-policy'), path).toBe(CONSOLE_CSP);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('permissions-policy'), path).toBe(
        consolePageHeaders()['Permissions-Policy'],
      );
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(response.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      // Plain HTTP on 127.0.0.1: HSTS is for the deployed stage only (docs/decisions.md, "HTTP").
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
      expect(response.headers.get('x-request-id'), path).toBeTruthy();
      expect(await response.text(), path).toContain('<div id="app"></div>');
    }
    expect(server.output()).toMatch(/console: +http:\/\/127\.0\.0\.1:\d+\/ \(built now in /);
  });

  it("serves the page's assets from this origin, cached for a year", async () => {
    const page = await (await fetch(`${server.url}/`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');

    expect(assets).toHaveLength(4);
    for (const asset of assets) {
      expect(asset, asset).toMatch(/^\/assets\/(boot|main|icon)-[A-Z0-9]+\.(js|css|svg)$/);
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-security-policy'), asset).toBe(CONSOLE_CSP);
      expect((await response.text()).length, asset).toBeGreaterThan(100);
    }
  });

  it('gzips the script and styles for a browser that accepts it, as the gateway does deployed', async () => {
    const page = await (await fetch(`${server.url}/`)).text();
    const [script = '', styles = ''] = ['main-[A-Z0-9]+\\.js', 'main-[A-Z0-9]+\\.css'].map(
      (name) => new RegExp(`/assets/${name}`).exec(page)?.[0],
    );

    for (const asset of [script, styles]) {
      const gzipped = await fetch(`${server.url}${asset}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
      const plain = await fetch(`${server.url}${asset}`, { headers: { 'Accept-Encoding': 'identity' } });

      expect(gzipped.headers.get('content-encoding'), asset).toBe('gzip');
      expect(gzipped.headers.get('vary'), asset).toBe('Accept-Encoding');
      expect(Number(gzipped.headers.get('content-length')), asset).toBeLessThan(
        Number(plain.headers.get('content-length')) / 2,
      );
      expect(plain.headers.get('content-encoding'), asset).toBeNull();
      expect(await gzipped.text(), asset).toBe(await plain.text());
    }
  });

  it('answers HEAD like GET without a body, and other methods on a screen with 405 and Allow', async () => {
    const head = await fetch(`${server.url}/search`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(await head.text()).toBe('');

    const post = await fetch(`${server.url}/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('leaves unknown assets and the API to their own answers', async () => {
    const asset = await fetch(`${server.url}/assets/missing-AAAA.js`);
    expect(asset.status).toBe(404);
    expect(await asset.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    const api = await fetch(`${server.url}/api/flights/search`);
    expect(api.status).toBe(405);
  });
});
