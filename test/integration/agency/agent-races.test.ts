import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agencyCountersKey } from '#shared/agency/agency-counters-item.ts';
import { readAgentProfile } from '#shared/agency/agent-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { testTable } from '#test/helpers/agents.ts';
import { type Answer, invoke } from '#test/helpers/api.ts';
import { handler as agentsCreate } from '#test/helpers/routes/agency/agents-create.ts';
import { handler as agentsList } from '#test/helpers/routes/agency/agents-list.ts';
import { handler as agentsUpdate } from '#test/helpers/routes/agency/agents-update.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

const agencyOf = () => `race-${Math.random().toString(36).slice(2, 8)}`;
const update = (body: Record<string, unknown>, who: TestSession) =>
  invoke(agentsUpdate, { path: '/api/agency/agents/update', body, headers: who.headers });
const listed = async (who: TestSession) =>
  (await invoke(agentsList, { path: '/api/agency/agents/list', body: {}, headers: who.headers })).body
    .data as {
    id: string;
    role: string;
    active: boolean;
    name: string;
    updated_by?: { id: string };
  }[];

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * ADMIN B sends `body` about itself one request at a time, as fast as answers come, until one is
 * refused — while `cut` (another ADMIN's or the operator's change of B) runs once, a few requests in.
 * Answers B's statuses.
 */
async function loopWhile(b: TestSession, body: Record<string, unknown>, cut: () => Promise<unknown>) {
  const statuses: number[] = [];
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const loop = (async () => {
    for (let i = 0; i < 200; i++) {
      const answer: Answer = await update({ agent_id: b.agent.id, ...body }, b);
      statuses.push(answer.status);
      if (i === 2) started();
      if (answer.status !== 200) return;
    }
  })();
  await running;
  await cut();
  await loop;
  return statuses;
}

describe('agency administration: the caller’s right to act is part of the write', () => {
  it('a deactivated ADMIN never re-activates itself, however its requests race the deactivation (8 rounds)', async () => {
    for (let round = 0; round < 8; round++) {
      const agency = agencyOf();
      const [a, b] = await Promise.all([
        signIn({ agencyId: agency, role: 'ADMIN', name: 'Ada' }),
        signIn({ agencyId: agency, role: 'ADMIN', name: 'Bea' }),
      ]);
      let deactivation: Answer | undefined;

      const statuses = await loopWhile(b, { active: true }, async () => {
        deactivation = await update({ agent_id: b.agent.id, active: false }, a);
      });
      const bNow = (await listed(a)).find((x) => x.id === b.agent.id);

      expect(deactivation?.status).toBe(200);
      expect(statuses.at(-1)).toBe(401);
      expect(statuses.filter((s) => s !== 200 && s !== 401)).toEqual([]);
      expect(bNow).toMatchObject({ active: false, updated_by: { id: a.agent.id } });
    }
  }, 40_000);

  it('nor undoes the operator’s deactivation (CLI), nor a demotion (5 rounds each)', async () => {
    for (let round = 0; round < 5; round++) {
      const agency = agencyOf();
      const [a, b, c] = await Promise.all([
        signIn({ agencyId: agency, role: 'ADMIN', name: 'Ada' }),
        signIn({ agencyId: agency, role: 'ADMIN', name: 'Bea' }),
        signIn({ agencyId: agency, role: 'ADMIN', name: 'Cy' }),
      ]);

      const cliStatuses = await loopWhile(b, { active: true }, () =>
        changeAgentByIdentifier(testTable, testContext.clock, b.agent.identifier, { active: false }),
      );
      let demotion: Answer | undefined;
      const demotedStatuses = await loopWhile(c, { role: 'ADMIN' }, async () => {
        demotion = await update({ agent_id: c.agent.id, role: 'AGENT' }, a);
      });
      const agents = await listed(a);

      expect(cliStatuses.at(-1)).toBe(401);
      expect(agents.find((x) => x.id === b.agent.id)).toMatchObject({
        active: false,
        updated_by: { id: 'operator' },
      });
      expect(demotion?.status).toBe(200);
      // Demoted, C is still signed in but no longer an ADMIN: 403, and its role stays AGENT.
      expect(demotedStatuses.at(-1)).toBe(403);
      expect(agents.find((x) => x.id === c.agent.id)).toMatchObject({
        role: 'AGENT',
        updated_by: { id: a.agent.id },
      });
    }
  }, 40_000);
});

describe('agency administration: the right to act, checked at the write', () => {
  /** Runs `change` just before the next TransactWriteItems the handlers send: inside the race window. */
  function justBeforeTheWrite(change: () => Promise<unknown>) {
    let done = false;
    testContext.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (!done && ctx.commandName === 'TransactWriteItemsCommand') {
          done = true;
          await change();
        }
        return next(args);
      },
      { step: 'initialize', name: 'justBeforeTheWrite' },
    );
    return () => testContext.db.middlewareStack.remove('justBeforeTheWrite');
  }

  it('adds no agent for an ADMIN demoted between its session check and the write (403), nor changes one for a deactivated ADMIN (401)', async () => {
    const agency = agencyOf();
    const [a, b] = await Promise.all([
      signIn({ agencyId: agency, role: 'ADMIN', name: 'Ada' }),
      signIn({ agencyId: agency, role: 'ADMIN', name: 'Bea' }),
    ]);
    const target = await signIn({ agencyId: agency, name: 'Target' });
    const identifier = `late-${Math.random().toString(36).slice(2, 8)}@example.com`;

    let undo = justBeforeTheWrite(() =>
      changeAgentByIdentifier(testTable, testContext.clock, b.agent.identifier, { role: 'AGENT' }),
    );
    const created = await invoke(agentsCreate, {
      path: '/api/agency/agents/create',
      body: { identifier, type: 'EMAIL', name: 'Late' },
      headers: b.headers,
    }).finally(undo);
    undo = justBeforeTheWrite(() =>
      // Forced: with B demoted, A is the agency's last ADMIN.
      changeAgentByIdentifier(
        testTable,
        testContext.clock,
        a.agent.identifier,
        { active: false },
        { force: true },
      ),
    );
    const renamed = await update({ agent_id: target.agent.id, name: 'Renamed' }, a).finally(undo);

    expect(created.status).toBe(403);
    expect(await readAgentProfile(testTable, identifier)).toBeUndefined();
    expect(renamed.status).toBe(401);
    expect((await readAgentProfile(testTable, target.agent.identifier))?.agent.name).toBe('Target');
  });
});

describe('agency administration: faults at the write', () => {
  /** Every TransactWriteItems is cancelled for `reason` until the returned function is called. */
  function cancelEveryTransaction(reason: string) {
    testContext.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName !== 'TransactWriteItemsCommand') return next(args);
        const items = (args.input as { TransactItems: unknown[] }).TransactItems;
        throw Object.assign(new Error('Transaction cancelled'), {
          name: 'TransactionCanceledException',
          $fault: 'client',
          $metadata: {},
          CancellationReasons: items.map((_, i) => ({ Code: i === 0 ? reason : 'None' })),
        });
      },
      { step: 'initialize', name: 'cancelEveryTransaction' },
    );
    return () => testContext.db.middlewareStack.remove('cancelEveryTransaction');
  }

  it('answers 429 with Retry-After when races with other clients never end, 503 when DynamoDB throttles; nothing changes', async () => {
    const agency = agencyOf();
    const admin = await signIn({ agencyId: agency, role: 'ADMIN', name: 'Ada' });
    const target = await signIn({ agencyId: agency, name: 'Target' });

    let undo = cancelEveryTransaction('TransactionConflict');
    const raced = await update({ agent_id: target.agent.id, name: 'Raced' }, admin).finally(undo);
    undo = cancelEveryTransaction('ThrottlingError');
    const throttled = await update({ agent_id: target.agent.id, name: 'Throttled' }, admin).finally(undo);

    expect(raced.status).toBe(429);
    expect(raced.body.error.code).toBe('RATE_LIMITED');
    expect(raced.headers['Retry-After']).toBe('1');
    expect(throttled.status).toBe(503);
    expect((await readAgentProfile(testTable, target.agent.identifier))?.agent.name).toBe('Target');
  }, 40_000);
});

describe('agency administration: parallel changes of one agent', () => {
  it('applies 30 parallel updates of one agent (names, roles, active) without a 5xx, and the ADMIN count stays true', async () => {
    const agency = agencyOf();
    const admin = await signIn({ agencyId: agency, role: 'ADMIN', name: 'Ada' });
    const target = await signIn({ agencyId: agency, name: 'Target' });
    const bodies = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? { name: `Name ${i}` }
        : i % 3 === 1
          ? { role: i % 2 ? 'ADMIN' : 'AGENT' }
          : { active: i % 4 !== 0 },
    );

    const answers = await Promise.all(
      bodies.map((body) => update({ agent_id: target.agent.id, ...body }, admin)),
    );
    const renames = await Promise.all(
      Array.from({ length: 30 }, (_, i) => update({ agent_id: target.agent.id, name: `Again ${i}` }, admin)),
    );
    const agents = await listed(admin);
    const counters = await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: agencyCountersKey(agency),
        ConsistentRead: true,
      }),
    );

    expect([...answers, ...renames].map((a) => a.status)).toEqual(Array(60).fill(200));
    const activeAdmins = agents.filter((x) => x.role === 'ADMIN' && x.active).length;
    expect(counters.Item?.active_admins).toBe(activeAdmins);
    expect(agents.find((x) => x.id === target.agent.id)?.name).toMatch(/^Again \d+$/);
  }, 40_000);
});
