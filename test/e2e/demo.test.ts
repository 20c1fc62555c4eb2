import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { agentsCli } from '#test/helpers/local-server.ts';
import { sharedServer } from '#test/helpers/shared-server.ts';

const run = promisify(execFile);
// The shared server: no other file signs the demo agent in there (test/helpers/shared-server.ts).
const server = sharedServer();

describe('e2e: npm run demo', () => {
  it('signs in, searches a return journey, books it, finds it by PNR, cancels it, holds and confirms another, books and cancels a multi-city trip, and signs out', async () => {
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
      '200',
      '201',
      '200',
      '200',
      '200',
      '201',
      '200',
      '200',
    ]);
    const pnr = /PNR ([A-Z]{6})/.exec(stdout)?.[1];
    expect(pnr).toBeDefined();
    expect(stdout).toContain(`${pnr} is CONFIRMED`);
    expect(stdout).toContain(`${pnr} is CANCELLED`);
    // The fare's conditions in the results, then the quoted refund is the one the cancel gives.
    expect(stdout).toMatch(/ JFK-LHR \S+Z {2}\((non-refundable|refundable[^)]*)\)/);
    const quoted = /a cancel now refunds (\S+ EUR)/.exec(stdout)?.[1];
    expect(quoted).toBeDefined();
    expect(stdout).toMatch(new RegExp(`${pnr} is CANCELLED at \\S+Z, refunded ${quoted}`));
    expect(stdout).toMatch(/EUR {2}[A-Z0-9]{2}\d+ LHR-.* ⇄ {2}[A-Z0-9]{2}\d+ JFK-/);
    expect(stdout).toMatch(new RegExp(`${pnr} is CONFIRMED, 1 passenger\\(s\\), out \\S+Z, back \\S+Z`));
    expect(stdout).toMatch(/HELD: PNR [A-Z]{6} until \S+Z/);
    expect(stdout).toMatch(/[A-Z]{6} is CONFIRMED \(version 2\)/);
    expect(stdout).toMatch(/EUR {2}\S+ LHR-.* {2}→ {2}\S+ JFK-.* {2}→ {2}\S+ LAX-/);
    expect(stdout).toMatch(/CONFIRMED: PNR [A-Z]{6}, 3 journeys/);
    expect(stdout.trim().endsWith('Done.')).toBe(true);
  });

  it('signs in any registered agent given with --agent, a phone number too', async () => {
    await agentsCli(
      server.dataDir,
      'add',
      '+447400123777',
      '--name',
      'Phone Demo',
      '--agency',
      'demo-agency',
    );

    const { stdout } = await run(process.execPath, ['infra/local/demo.ts', '--agent', '+447400123777'], {
      env: { ...process.env, DATA_DIR: server.dataDir, API: '' },
    });

    expect(stdout).toContain(', as +447400123777');
    expect(stdout).toContain('signed in as Phone Demo (demo-agency)');
    expect(stdout.trim().endsWith('Done.')).toBe(true);
  });

  it('says why it waits and for how long when the agent’s codes are throttled', async () => {
    // One code per identifier per 30 s: a code sent just now (the first test's may be older than
    // that on a busy machine).
    const sent = await fetch(`${server.url}/api/auth/send-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'agent@example.com', type: 'EMAIL' }),
    });
    expect([202, 429]).toContain(sent.status);
    const demo = spawn(process.execPath, ['infra/local/demo.ts'], {
      env: { ...process.env, DATA_DIR: server.dataDir, API: '' },
    });
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      demo.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        if (stdout.includes('npm run demo -- --agent')) resolve();
      });
      demo.once('exit', () => reject(new Error(`the demo ended without waiting: ${stdout}`)));
    });
    demo.kill();

    expect(stdout).toMatch(/← 429 RATE_LIMITED/);
    expect(stdout).toMatch(
      /Codes for agent@example\.com are throttled: one per 30 s and five an hour per identifier/,
    );
    expect(stdout).toMatch(
      /The next code can be sent in ([1-9]|[12]\d|30) s \(at \d\d:\d\d:\d\d UTC\): waiting/,
    );
    expect(stdout).toContain('npm run agents -- add demo2@example.com');
  });

  it('stops with the reason when the agent gets no code, and refuses an identifier that is none', async () => {
    const env = { ...process.env, DATA_DIR: server.dataDir, API: '' };

    const unknown = await run(process.execPath, ['infra/local/demo.ts', '--agent', 'nobody@example.com'], {
      env,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    const malformed = await run(process.execPath, ['infra/local/demo.ts', '--agent', 'not an agent'], {
      env,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);

    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no code for nobody@example.com'),
    });
    expect(unknown.stderr).toContain('Codes go only to agents registered on this server');
    expect(unknown.stderr).not.toMatch(/TypeError|at .*\.ts:\d+/);
    expect(malformed).toMatchObject({ code: 2, stderr: expect.stringContaining('--agent must be') });
  });

  it('says how to start the API when none is running', async () => {
    const error = await run(process.execPath, ['infra/local/demo.ts'], {
      env: { ...process.env, DATA_DIR: '/tmp/no-such-flight-booking-data', API: '' },
    }).catch((e: { code: number; stderr: string }) => e);

    expect(error).toMatchObject({ code: 1, stderr: expect.stringContaining('npm start') });
  });
});
