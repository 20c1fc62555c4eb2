import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody } from '../../../infra/local/gateway-compression.ts';

const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

describe('the dev server’s compression, as the gateway compresses', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['*', true],
    ['x-gzip', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000, br', false],
    ['gzipped', false],
  ])('reads Accept-Encoding %j as taking gzip: %s', (header, takes) => {
    expect(encodedBody(script, header).encoding).toBe(takes ? 'gzip' : undefined);
  });

  it('gzips a body of 1 KiB and more for a client that takes it, and leaves the rest as it is', () => {
    const compressed = encodedBody(script, 'gzip, deflate, br');
    const refused = encodedBody(script, 'br');
    const small = encodedBody('body{}', 'gzip');

    expect(compressed.encoding).toBe('gzip');
    expect(compressed.body.length).toBeLessThan(200);
    expect(gunzipSync(compressed.body).toString()).toBe(script);
    expect(encodedBody(script, 'gzip').body).toBe(compressed.body);
    expect(refused).toEqual({ body: Buffer.from(script) });
    expect(small).toEqual({ body: Buffer.from('body{}') });
  });
});
