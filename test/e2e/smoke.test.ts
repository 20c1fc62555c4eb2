import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_FILE } from '#shared/notify/outbox-sender.ts';
import { agentsCli } from '#test/helpers/local-server.ts';
import { ownAdmin, sharedServer } from '#test/helpers/shared-server.ts';
import { type Receiver, startReceiver } from '#test/helpers/webhook-receiver.ts';

const run = promisify(execFile);
// The shared server, with agents of an agency of its own: its webhooks and sign-ins meet no other file's.
const server = sharedServer();
const AGENCY = 'smoke-agency';
let admin: string;
let receiver: Receiver;

beforeAll(async () => {
  [{ identifier: admin }, receiver] = await Promise.all([ownAdmin(server, AGENCY), startReceiver()]);
});

afterAll(async () => {
  await receiver?.close();
});

/** `npm run smoke -- …` against the local server, reading codes from its outbox. */
async function smoke(...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      'npm',
      [
        'run',
        '--silent',
        'smoke',
        '--',
        '--url',
        `${server.url}/`,
        '--code-file',
        join(server.dataDir, OUTBOX_FILE),
        ...args,
      ],
      { env: process.env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('e2e: npm run smoke against npm start', () => {
  it('signs in, searches, books, cancels at the quoted refund, holds and confirms, and proves the events functions ran', async () => {
    const result = await smoke('--identifier', admin);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('ok  ')).map((l) => l.slice(4).split(':')[0])).toEqual([
      'sign-in',
      'search',
      'book',
      'book',
      'hold',
      'hold confirm',
      'hold',
      'events',
      'sign out',
    ]);
    expect(result.stdout).toMatch(/book: cancelled [A-Z0-9]{6}, refunded \d+(\.\d+)? EUR/);
    // No receiver given: the ping went to the API's own unknown path, whose 404 the deliveries function recorded.
    expect(result.stdout).toContain(
      `the ping reached ${server.url}/api/smoke-webhook (retrying with HTTP 404)`,
    );
    expect(lines.at(-1)).toBe('Smoke test passed.');
  });

  it('with --webhook-url, needs the ping delivered to that receiver', async () => {
    await agentsCli(
      server.dataDir,
      'add',
      'ops@example.com',
      '--name',
      'Ops',
      '--agency',
      AGENCY,
      '--role',
      'ADMIN',
    );

    const result = await smoke('--identifier', 'ops@example.com', '--webhook-url', receiver.url);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`the ping reached ${receiver.url} (delivered with HTTP 204)`);
    expect(receiver.deliveries.map((d) => d.body.type)).toContain('webhook.ping');
  });

  it('stops at the first failure with a clear message and exit code 1', async () => {
    await agentsCli(server.dataDir, 'add', 'clerk@example.com', '--name', 'Clerk', '--agency', AGENCY);

    const unknown = await smoke('--identifier', `nobody@${AGENCY}.example.com`);
    const clerk = await smoke('--identifier', 'clerk@example.com');

    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      `Smoke test FAILED at sign-in: no code for nobody@${AGENCY}.example.com arrived in`,
    );
    expect(clerk.code).toBe(1);
    expect(clerk.stderr).toContain(
      'Smoke test FAILED at sign-in: clerk@example.com is AGENT; the events check needs an ADMIN',
    );
    expect(clerk.stdout).not.toContain('ok  search');
  });

  it('refuses bad options with exit code 2 and the usage', async () => {
    const result = await smoke();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--identifier is required');
    expect(result.stderr).toContain('Usage: npm run smoke');
  });
});
