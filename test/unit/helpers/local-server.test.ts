import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, startListening } from '#test/helpers/local-server.ts';

/** A node script that writes its pid to `pidFile`, prints `prints`, and stays up. */
const staysUp = (pidFile: string, prints: string) => [
  '-e',
  `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); console.log(${JSON.stringify(prints)}); setInterval(() => {}, 1000);`,
];

describe('fn: startListening', () => {
  it('resolves with the URL the process prints, and stops it on request', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'listening-')), 'pid');
    const started = await startListening(staysUp(pidFile, 'listening on http://127.0.0.1:4321'));

    expect(started.url).toBe('http://127.0.0.1:4321');
    await started.stop();
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('leaves no timer behind once the process has stopped, so the caller can exit at once', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'listening-')), 'pid');
    const started = await startListening(staysUp(pidFile, 'listening on http://127.0.0.1:4321'));
    const timers = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
    const before = timers();

    await started.stop();
    expect(timers()).toBe(before);
  });

  it('fails with what the process printed when it never says where it listens, and stops it', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'listening-')), 'pid');

    await expect(startListening(staysUp(pidFile, 'still warming up'), {}, 500)).rejects.toThrow(
      /printed no "listening on" within 0.5 s:\n.*still warming up/,
    );
    expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('fails with what the process printed when it exits first', async () => {
    await expect(startListening(['-e', 'console.error("no table"); process.exit(3)'])).rejects.toThrow(
      /exited \(3\) before listening:\nno table/,
    );
  });
});
