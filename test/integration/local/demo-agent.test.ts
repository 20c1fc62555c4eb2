import { describe, expect, it } from 'vitest';
import { readAgentProfile } from '#shared/agency/agent-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { handler as updateAgent } from '#test/helpers/routes/agency/agents-update.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { DEMO_AGENT, ensureDemoAgent } from '../../../infra/local/bootstrap.ts';

const demoAgent = async () => (await readAgentProfile(testTable, DEMO_AGENT.identifier))?.agent;
const start = () => ensureDemoAgent(testTable.db, testTable.tableName, testContext.clock);

describe('npm start: the demo agent', () => {
  it('is registered an ADMIN on a fresh database, and a later start leaves a changed role alone', async () => {
    await start();
    const registered = await demoAgent();
    const admin = await signIn({ agencyId: DEMO_AGENT.agencyId, role: 'ADMIN' });

    const demoted = await invoke(updateAgent, {
      path: '/api/agency/agents/update',
      headers: admin.headers,
      body: { agent_id: registered?.id, role: 'AGENT' },
    });
    await start();
    await start();

    expect(registered?.role).toBe('ADMIN');
    expect(demoted.status).toBe(200);
    expect(await demoAgent()).toMatchObject({ id: registered?.id, role: 'AGENT' });
  });
});
