import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { sessionStateKey } from '#shared/auth/session-state-item.ts';
import { systemClock } from '#shared/clock.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { handler as session } from '#test/helpers/routes/auth/session.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

const path = '/api/auth/session';
const byBearer = (token: string, body: unknown = {}) =>
  invoke(session, { path, body, headers: { Authorization: `Bearer ${token}` } });
const byCookie = (token: string) =>
  invoke(session, {
    path,
    rawBody: null,
    headers: { 'Content-Type': 'application/json', Cookie: `__Host-session=${token}` },
  });

describe('fn: session', () => {
  it('answers who is calling, until when, and by the bearer token', async () => {
    const { token, agent } = await signIn({ agencyId: 'acme-travel', name: 'Ada Agent', role: 'ADMIN' });

    const answer = await byBearer(token);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      data: {
        agent: {
          id: agent.id,
          name: 'Ada Agent',
          agency_id: 'acme-travel',
          identifier: agent.identifier,
          role: 'ADMIN',
        },
        expires_at: new Date((decodeJwt(token).exp ?? 0) * 1000).toISOString().replace('.000', ''),
        via: 'bearer',
      },
    });
    expect(answer.headers['Set-Cookie']).toBeUndefined();
  });

  it('answers a browser holding only the session cookie, and says so', async () => {
    const { token, agent } = await signIn();

    const answer = await byCookie(token);

    expect(answer.status).toBe(200);
    expect(answer.body.data.agent.id).toBe(agent.id);
    expect(answer.body.data.via).toBe('cookie');
  });

  it('costs exactly the one session read every route makes', async () => {
    const { token } = await signIn();
    const recorded = recordDynamoCalls(context.db, 'sessionCalls');

    try {
      await byBearer(token);
    } finally {
      recorded.stop();
    }

    expect(recorded.calls).toEqual(['GetItemCommand']);
  });

  it('answers the name and role as they are now, not as they were at sign-in', async () => {
    const { token, agent } = await signIn({ name: 'Before' });
    await changeAgentByIdentifier(testTable, systemClock(), agent.identifier, {
      name: 'After',
      role: 'ADMIN',
    });

    const answer = await byBearer(token);

    expect(answer.body.data.agent).toMatchObject({ name: 'After', role: 'ADMIN' });
  });

  it('is 401 without a session, with a logged-out or a deactivated agent’s token, and for a bad token', async () => {
    const loggedOut = await signIn();
    await invoke(logout, { path: '/api/auth/logout', headers: loggedOut.headers });
    const deactivated = await signIn();
    await changeAgentByIdentifier(testTable, systemClock(), deactivated.agent.identifier, { active: false });

    const answers = [
      await invoke(session, { path, body: {} }),
      await byBearer(loggedOut.token),
      await byCookie(deactivated.token),
      await byBearer(`${loggedOut.token.slice(0, -2)}xx`),
      await byBearer('not-a-token'),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
      expect(answer.headers['WWW-Authenticate']).toMatch(/^Bearer/);
    }
  });

  it('ignores fields in the body and refuses a body that is not a JSON object', async () => {
    const { token } = await signIn();

    const extra = await byBearer(token, { agent_id: 'agt_other', role: 'ADMIN' });
    const notObject = await invoke(session, {
      path,
      rawBody: '[1]',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    });

    expect(extra.status).toBe(200);
    expect(extra.body.data.agent.role).toBe('AGENT');
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.code).toBe('INVALID_JSON');
  });

  it('cannot answer an identifier its session state lacks, and leaks nothing about it', async () => {
    const { token, agent } = await signIn();
    await testTable.db.send(
      new UpdateCommand({
        TableName: testTable.tableName,
        Key: sessionStateKey(agent.id),
        UpdateExpression: 'REMOVE identifier',
      }),
    );

    const answer = await byBearer(token);

    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(answer.body)).not.toMatch(/identifier|session state/i);
  });
});
