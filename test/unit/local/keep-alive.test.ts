import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevServer } from '../../../infra/local/dev-server.ts';

/**
 * A keep-alive client counts the idle time the server advertises (`Keep-Alive: timeout=N`) from when it
 * reads an answer; the server counts from when it sent it. On a loaded machine the client reads late,
 * so a server that closes soon after its advertised time closes a connection the client is reusing
 * that very moment: fetch fails with "other side closed". The dev server waits well past what it
 * advertises, so the client, which trusts the advertisement, always closes first.
 */
const server = createDevServer(new Map());
afterEach(() => new Promise((resolve) => server.close(resolve)));

const REQUEST = 'POST /nowhere HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}';

describe('npm start: keep-alive connections', () => {
  it('still serves a connection the client reads late and reuses within the advertised idle time', async () => {
    // One second advertised (the default is five) keeps the test short; the rule is the same.
    server.keepAliveTimeout = 1000;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk) => {
      received += chunk;
    });
    const closed = once(socket, 'close').then(() => 'closed');
    const answer = async (count: number) => {
      while ((received.match(/HTTP\/1\.1 404/g) ?? []).length < count)
        if ((await Promise.race([closed, sleep(20)])) === 'closed') return 'closed by the server';
      return 'answered';
    };

    socket.write(REQUEST);
    expect(await answer(1)).toBe('answered');
    expect(received).toMatch(/Keep-Alive: timeout=1\r\n/);
    // A loaded client: it reads the answer 1.5 s after it came, then reuses the connection 0.9 s
    // later, within the second advertised, counted from its reading.
    await sleep(1500 + 900);
    socket.write(REQUEST);
    expect(await answer(2)).toBe('answered');
    socket.destroy();
  });
});
