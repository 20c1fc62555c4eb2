import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agencyCountersKey } from '#shared/agency/agency-counters-item.ts';
import { readAgentProfile } from '#shared/agency/agent-item.ts';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { sessionStateKey } from '#shared/auth/session-state-item.ts';
import { testTable, uniqueEmail } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { readOutbox } from '#test/helpers/outbox.ts';
import { handler as agentsList } from '#test/helpers/routes/agency/agents-list.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

const run = promisify(execFile);

/** `npm run agents -- …` as the operator runs it against a deployed table (TABLE_NAME set). */
async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['infra/cli/agents.ts', ...args], {
      env: {
        ...process.env,
        TABLE_NAME: testTable.tableName,
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
const agencyOf = () => `cli-${Math.random().toString(36).slice(2, 8)}`;
const list = (who: TestSession) =>
  invoke(agentsList, { path: '/api/agency/agents/list', body: {}, headers: who.headers });
const item = async (key: Record<string, string>) =>
  (
    await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: key, ConsistentRead: true }),
    )
  ).Item;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('operator CLI: usage', () => {
  it('prints a readable usage naming every command for --help and -h, exit 0, touching no table', async () => {
    // The stage's countries as a deployed stage's operator gives them (ALLOWED_PHONE_COUNTRY_CODES).
    const unreachable = {
      TABLE_NAME: 'no-such-table',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      ALLOWED_PHONE_COUNTRY_CODES: '1,44',
    };

    const answers = await Promise.all(
      [['--help'], ['-h'], ['add', '--help']].map((a) => cli(a, unreachable)),
    );

    for (const answer of answers) {
      expect(answer.code).toBe(0);
      expect(answer.stderr).toBe('');
      expect(answer.stdout).toMatch(/^Usage: npm run agents -- <command>/);
      expect(answer.stdout).not.toMatch(/\\n|^\{/);
      const commands = [...answer.stdout.matchAll(/^ {2}([a-z-]+)(?= )/gm)].map((m) => m[1]);
      expect(commands).toEqual(
        expect.arrayContaining(['add', 'list', 'deactivate', 'activate', 'role', 'revoke', 'release']),
      );
      expect(commands).toEqual(expect.arrayContaining(['limit', 'agency-name', 'migrate']));
    }
  }, 60_000);

  it('exits 2 with one JSON error line for a usage error, touching no table', async () => {
    // A table nobody can reach: any attempt would exit 1 with "could not reach the agents table".
    // The stage's countries as a deployed stage's operator gives them (ALLOWED_PHONE_COUNTRY_CODES).
    const unreachable = {
      TABLE_NAME: 'no-such-table',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      ALLOWED_PHONE_COUNTRY_CODES: '1,44',
    };
    const cases: [string[], RegExp][] = [
      [['add', 'a@example.com', '--agency', 'acme', '--name'], /--name/],
      [['list', '--agency'], /--agency/],
      [['limit', 'acme', '0'], /limit must be a whole number/],
      [['activate', 'a@example.com', '--force'], /--force is for deactivate only/],
      [['frobnicate'], /unknown command "frobnicate".*--help/],
      [[], /a command is required/],
      [['add', '+449061234567', '--name', 'Premium', '--agency', 'acme'], /premium-rate/],
      [['add', '+447700900123', '--name', 'Drama', '--agency', 'acme'], /exists in \+44's numbering plan/],
      [['add', '+10000000', '--name', 'Nobody', '--agency', 'acme'], /exists in \+1's numbering plan/],
      [
        ['add', 'ada@example.com', '--name', 'Ada\u001DBoss', '--agency', 'acme'],
        /--name must not contain control/,
      ],
    ];

    const answers = await Promise.all(cases.map(([args]) => cli(args, unreachable)));

    answers.forEach((answer, i) => {
      expect(answer.code).toBe(2);
      expect(answer.stdout).toBe('');
      expect(JSON.parse(answer.stderr).error).toMatch(cases[i]?.[1] ?? /never/);
    });
  }, 60_000);
});

describe('operator CLI: cutting an agent off', () => {
  it('records the operator as the creator of an agent it adds', async () => {
    const identifier = uniqueEmail('added');

    const added = await cli(['add', identifier, '--name', 'Added', '--agency', agencyOf()]);

    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).created_by).toEqual({ id: 'operator', name: 'Operator (CLI)' });
    expect((await readAgentProfile(testTable, identifier))?.agent.created_by).toEqual({
      id: 'operator',
      name: 'Operator (CLI)',
    });
  }, 60_000);

  it('deactivates an agency’s last ADMIN only with --force, which ends its sessions at once', async () => {
    const admin = await signIn({ agencyId: agencyOf(), role: 'ADMIN' });

    const refused = await cli(['deactivate', admin.agent.identifier]);
    const stillIn = await list(admin);
    const forced = await cli(['deactivate', admin.agent.identifier, '--force']);
    const cutOff = await list(admin);

    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatch(/without an active ADMIN/);
    expect(stillIn.status).toBe(200);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ active: false, updated_by: { id: 'operator' } });
    expect(cutOff.status).toBe(401);
    expect((await item(agencyCountersKey(admin.agent.agency_id)))?.active_admins).toBe(0);
  }, 60_000);

  it('revokes every session of an agent, which stays active', async () => {
    const admin = await signIn({ agencyId: agencyOf(), role: 'ADMIN' });

    const revoked = await cli(['revoke', admin.agent.identifier.toUpperCase()]);
    const after = await list(admin);
    const unknown = await cli(['revoke', uniqueEmail('nobody')]);

    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: admin.agent.identifier, agent_id: admin.agent.id });
    expect(after.status).toBe(401);
    expect((await readAgentProfile(testTable, admin.agent.identifier))?.agent.active).toBe(true);
    expect(unknown.code).toBe(1);
  }, 60_000);

  it('releases an identifier registered by mistake: profile, snapshot, sessions and counts, in one go', async () => {
    const agency = agencyOf();
    const admin = await signIn({ agencyId: agency, role: 'ADMIN' });
    const mistake = await signIn({ agencyId: agency, role: 'ADMIN' });
    const before = await item(agencyCountersKey(agency));

    const released = await cli(['release', mistake.agent.identifier]);
    const tokenAfter = await list(mistake);
    await invoke(sendOtp, {
      path: '/api/auth/send-otp',
      body: { identifier: mistake.agent.identifier, type: 'EMAIL' },
    });
    const otp = await item(otpChallengeKey(mistake.agent.identifier));
    const again = await cli(['add', mistake.agent.identifier, '--name', 'Rightful', '--agency', agencyOf()]);
    const twice = await cli(['release', uniqueEmail('nobody')]);

    expect(released.code).toBe(0);
    expect(JSON.parse(released.stdout)).toMatchObject({
      released: mistake.agent.identifier,
      agency_id: agency,
    });
    expect(tokenAfter.status).toBe(401);
    expect(before).toMatchObject({ agents: 2, active_admins: 2 });
    expect(await item(agencyCountersKey(agency))).toMatchObject({ agents: 1, active_admins: 1 });
    expect(await item(sessionStateKey(mistake.agent.id))).toBeUndefined();
    expect(otp?.agent).toBeUndefined();
    expect(otp?.ttl).toEqual(expect.any(Number));
    // Only the code of its sign-in above was ever sent: nothing after the release.
    expect((await readOutbox()).filter((e) => e.to === mistake.agent.identifier)).toHaveLength(1);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).id).not.toBe(mistake.agent.id);
    expect(twice.code).toBe(1);
    expect((await list(admin)).status).toBe(200);
  }, 60_000);

  it('sets an agency’s limit of agents', async () => {
    const agency = agencyOf();

    const answer = await cli(['limit', agency, '120']);

    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({ agency_id: agency, agent_limit: 120 });
    expect((await item(agencyCountersKey(agency)))?.agent_limit).toBe(120);
  }, 60_000);
});
