import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsCli,
  agentsCliWithEnv,
  type LocalServer,
  newDataDir,
  post,
  startLocalServer,
} from '#test/helpers/local-server.ts';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function start(dataDir?: string) {
  const server = await startLocalServer(dataDir);
  servers.push(server);
  return server;
}

async function signIn(server: LocalServer, identifier: string, type: 'EMAIL' | 'PHONE') {
  const sent = await post(`${server.url}/api/auth/send-otp`, { identifier, type });
  expect(sent.status).toBe(202);
  const outbox = await readFile(join(server.dataDir, 'outbox.jsonl'), 'utf8');
  const entry = outbox
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((e) => e.to === identifier)
    .at(-1);
  return post(`${server.url}/api/auth/verify-otp`, { identifier, code: entry?.code });
}

/**
 * One running stack serves every CLI call that does not test starting or stopping a database: each
 * CLI call without one starts a DynamoDB Local of its own (about 3 s).
 */
let running: LocalServer;

/** The test that starts DynamoDB Local three times (a JVM each, 3-20 s on a busy 2-core machine) gets longer. */
const STARTS_DATABASES = 120_000;
beforeAll(async () => {
  running = await start();
});

describe('e2e: local runtime and agents CLI', () => {
  it('registers an agent through the CLI against the running stack, who then signs in by SMS', async () => {
    const server = running;

    const added = await agentsCli(
      server.dataDir,
      'add',
      '+447400123999',
      '--name',
      'Phone Agent',
      '--agency',
      'acme-travel',
    );
    const listed = await agentsCli(server.dataDir, 'list');

    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      id: expect.stringMatching(/^agt_/),
      identifier: '+447400123999',
      type: 'PHONE',
      name: 'Phone Agent',
      agency_id: 'acme-travel',
      active: true,
    });
    const identifiers = JSON.parse(listed.stdout).map((a: { identifier: string }) => a.identifier);
    expect(identifiers).toEqual(expect.arrayContaining(['+447400123999', 'agent@example.com']));
    const verified = await signIn(server, '+447400123999', 'PHONE');
    expect(verified.status).toBe(200);
    expect(verified.body.data.agent.agency_id).toBe('acme-travel');
    const outbox = await readFile(join(server.dataDir, 'outbox.jsonl'), 'utf8');
    expect(JSON.parse(outbox.trim().split('\n').at(-1) ?? '{}')).toEqual({
      channel: 'SMS',
      to: '+447400123999',
      code: expect.stringMatching(/^\d{6}$/),
      sent_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    });
  });

  it('works on a named table, as against AWS, when TABLE_NAME is set', async () => {
    const server = running;
    const { dynamodb_endpoint } = JSON.parse(await readFile(join(server.dataDir, 'local.json'), 'utf8'));
    const env = {
      TABLE_NAME: 'flight-booking',
      DYNAMODB_ENDPOINT: dynamodb_endpoint,
      DATA_DIR: '/nonexistent',
    };

    const added = await agentsCliWithEnv(
      env,
      'add',
      'remote@example.com',
      '--name',
      'Remote',
      '--agency',
      'acme',
    );
    const missingTable = await agentsCliWithEnv({ ...env, TABLE_NAME: 'no-such-table' }, 'list');

    expect(added.code).toBe(0);
    expect((await signIn(server, 'remote@example.com', 'EMAIL')).status).toBe(200);
    expect(missingTable.code).toBe(1);
    expect(JSON.parse(missingTable.stderr).error).toBe(
      'could not reach the agents table: ResourceNotFoundException',
    );
  });

  it('checks a phone number against the stage’s allowed country codes, not every country, on AWS', async () => {
    const stageFile = join(newDataDir(), 'staging.json');
    const devFile = JSON.parse(readFileSync('infra/stages/dev.json', 'utf8'));
    writeFileSync(
      stageFile,
      JSON.stringify({ ...devFile, agencyBounds: { allowedPhoneCountryCodes: ['353'] } }),
    );
    const onAws = {
      TABLE_NAME: 'flight-booking-dev',
      DATA_DIR: '/nonexistent',
      ALLOWED_PHONE_COUNTRY_CODES: '',
    };
    const add = (env: Record<string, string>, ...more: string[]) =>
      agentsCliWithEnv(env, 'add', '+447400123456', '--name', 'P', '--agency', 'acme', ...more);

    const unchecked = await add(onAws);
    const stage = await add(onAws, '--stage', stageFile);
    const unknownStage = await add(onAws, '--stage', 'nowhere');
    const fromEnv = await add({ ...onAws, ALLOWED_PHONE_COUNTRY_CODES: '1,353' });

    expect(unchecked.code).toBe(2);
    expect(JSON.parse(unchecked.stderr).error).toBe(
      'a phone number is checked against the stage’s allowed country codes: add --stage <stage> (infra/stages/<stage>.json) or set ALLOWED_PHONE_COUNTRY_CODES',
    );
    expect(stage.code).toBe(2);
    expect(JSON.parse(stage.stderr).error).toBe(
      'identifier must be a phone number in a country this service texts (+353)',
    );
    expect(unknownStage.code).toBe(2);
    expect(JSON.parse(unknownStage.stderr).error).toBe('--stage: no infra/stages/nowhere.json');
    expect(fromEnv.code).toBe(2);
    expect(JSON.parse(fromEnv.stderr).error).toContain('country this service texts (+1, +353)');
  });

  it('validates identifiers as send-otp does, refuses duplicates, and prints JSON errors', async () => {
    const { dataDir } = running;

    const badPhone = await agentsCli(dataDir, 'add', '+44 7700 900999', '--name', 'X', '--agency', 'acme');
    const noAgency = await agentsCli(dataDir, 'add', 'b@example.com', '--name', 'X');
    const first = await agentsCli(dataDir, 'add', ' B@Example.com ', '--name', 'X', '--agency', 'acme');
    const duplicate = await agentsCli(dataDir, 'add', 'b@example.com', '--name', 'Y', '--agency', 'acme');

    expect(badPhone.code).toBe(2);
    expect(JSON.parse(badPhone.stderr).error).toMatch(/E.164/);
    expect(noAgency.code).toBe(2);
    expect(JSON.parse(noAgency.stderr).error).toMatch(/--agency/);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).identifier).toBe('b@example.com');
    expect(duplicate.code).toBe(1);
    expect(JSON.parse(duplicate.stderr).error).toMatch(/already an agent’s sign-in identifier/);

    const deactivated = await agentsCli(dataDir, 'deactivate', 'B@example.com');
    const unknown = await agentsCli(dataDir, 'deactivate', 'nobody@example.com');
    expect(deactivated.code).toBe(0);
    expect(JSON.parse(deactivated.stdout)).toMatchObject({ identifier: 'b@example.com', active: false });
    expect(unknown.code).toBe(1);
  });

  it(
    'keeps the database in DATA_DIR: the CLI starts a DynamoDB Local of its own when no npm start runs, npm start finds what it wrote, Ctrl-C stops DynamoDB Local, a restart keeps data and sessions',
    async () => {
      // One DATA_DIR through all three lives of its database: the CLI's, then two npm starts.
      const dataDir = newDataDir();
      const added = await agentsCli(dataDir, 'add', ' A@Example.com ', '--name', 'X', '--agency', 'acme');
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout).identifier).toBe('a@example.com');

      const first = await start(dataDir);
      expect(first.output()).toContain('existing database');
      const session = await signIn(first, 'a@example.com', 'EMAIL');
      expect(session.status).toBe(200);
      const endpoint = JSON.parse(
        await readFile(join(first.dataDir, 'local.json'), 'utf8'),
      ).dynamodb_endpoint;

      expect(await first.stop()).toBe(0);
      await expect(fetch(endpoint, { method: 'POST' })).rejects.toThrow();

      const again = await start(dataDir);
      expect(again.output()).toContain('existing database');
      const token = session.body.data.verification_token;
      const stillSignedIn = await post(
        `${again.url}/api/auth/logout`,
        {},
        { Authorization: `Bearer ${token}` },
      );
      expect(stillSignedIn.status).toBe(200);

      // Another DATA_DIR is another database: the stack the other tests share started on a new one.
      expect(running.output()).toContain('new database');
      const listed = await agentsCli(running.dataDir, 'list');
      const identifiers = JSON.parse(listed.stdout).map((a: { identifier: string }) => a.identifier);
      expect(identifiers).toContain('agent@example.com');
      expect(identifiers).not.toContain('a@example.com');
    },
    STARTS_DATABASES,
  );
});
