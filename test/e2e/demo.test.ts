import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '#test/helpers/local-server.ts';

const run = promisify(execFile);
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('e2e: npm run demo', () => {
  it('signs in, searches a return journey, books it, finds it by PNR, cancels it, holds and confirms another, and signs out', async () => {
    const { stdout } = await run(process.execPath, ['infra/local/demo.ts'], {
      env: { ...process.env, DATA_DIR: server.dataDir, API: '' },
    });

    const answers = stdout.split('\n').filter((line) => line.startsWith('← '));
    expect(answers.map((line) => line.slice(2, 5))).toEqual([
      '202',
      '200',
      '200',
      '201',
      '200',
      '200',
      '201',
      '200',
      '200',
      '200',
    ]);
    const pnr = /PNR ([A-Z]{6})/.exec(stdout)?.[1];
    expect(pnr).toBeDefined();
    expect(stdout).toContain(`${pnr} is CONFIRMED`);
    expect(stdout).toContain(`${pnr} is CANCELLED`);
    expect(stdout).toMatch(/EUR {2}[A-Z0-9]{2}\d+ LHR-.* ⇄ {2}[A-Z0-9]{2}\d+ JFK-/);
    expect(stdout).toMatch(new RegExp(`${pnr} is CONFIRMED, 1 passenger\\(s\\), out \\S+Z, back \\S+Z`));
    expect(stdout).toMatch(/HELD: PNR [A-Z]{6} until \S+Z/);
    expect(stdout).toMatch(/[A-Z]{6} is CONFIRMED \(version 2\)/);
    expect(stdout.trim().endsWith('Done.')).toBe(true);
  });

  it('says how to start the API when none is running', async () => {
    const error = await run(process.execPath, ['infra/local/demo.ts'], {
      env: { ...process.env, DATA_DIR: '/tmp/no-such-flight-booking-data', API: '' },
    }).catch((e: { code: number; stderr: string }) => e);

    expect(error).toMatchObject({ code: 1, stderr: expect.stringContaining('npm start') });
  });
});
