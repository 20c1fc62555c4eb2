import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '#test/helpers/local-server.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('e2e: API documentation', () => {
  it('serves the committed OpenAPI document at /openapi.json', async () => {
    const response = await fetch(`${server.url}/openapi.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(JSON.parse(readFileSync('openapi.json', 'utf8')));
  });

  it('serves a docs page that loads Swagger UI from the server itself, not a CDN', async () => {
    const page = await (await fetch(`${server.url}/docs`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');

    expect(page).toContain("url: '/openapi.json'");
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/'), asset).toBe(true);
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(500);
    }
  });

  it('answers other methods on the document with 405 and Allow: GET', async () => {
    const response = await fetch(`${server.url}/openapi.json`, { method: 'POST' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
