import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDevServer } from '../../../infra/local/dev-server.ts';

const writes: string[] = [];
const server = createDevServer(new Map(), undefined, () => writes.push('written'));
afterEach(() => new Promise((resolve) => server.close(resolve)));

describe('fn: createDevServer', () => {
  it('calls afterWrite once the answer to a request that may write is sent, never for a GET', async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/nowhere`;

    const read = await fetch(url);
    expect(read.status).toBe(404);
    await read.text();
    expect(writes).toEqual([]);

    const written = await fetch(url, { method: 'POST', body: '{}' });
    expect(written.status).toBe(404);
    await written.text();
    // Called once the answer is sent, which the client may read first.
    await vi.waitFor(() => expect(writes).toEqual(['written']));
    const again = await fetch(url);
    await again.text();
    expect(writes).toEqual(['written']);
  });
});
