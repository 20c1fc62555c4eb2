import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agencyCountersKey, setAgentLimit } from '#shared/agency/agency-counters-item.ts';
import { createCodeSender } from '#shared/notify/create-code-sender.ts';
import { registerTestAgent, testTable, uniqueEmail } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { readOutbox } from '#test/helpers/outbox.ts';
import { handler as agentsCreate } from '#test/helpers/routes/agency/agents-create.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler as sendOtpHandler } from '../../../functions/auth/send-otp.ts';

/** An agency's cap on agents until the operator changes it (README, agents). */
const DEFAULT_AGENT_LIMIT = 50;

const agencyOf = () => `bounds-${Math.random().toString(36).slice(2, 8)}`;
const add = (who: TestSession, body: Record<string, unknown>) =>
  invoke(agentsCreate, {
    path: '/api/agency/agents/create',
    body: { type: 'EMAIL', name: 'Colleague', ...body },
    headers: who.headers,
  });
const counters = async (agency: string) =>
  (
    await testTable.db.send(
      new GetCommand({
        TableName: testTable.tableName,
        Key: agencyCountersKey(agency),
        ConsistentRead: true,
      }),
    )
  ).Item;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('agency bounds: agents per agency', () => {
  it(`refuses the agent past the default cap of ${DEFAULT_AGENT_LIMIT} with 409 LIMIT_REACHED, in parallel too, until the operator raises it`, async () => {
    const agency = agencyOf();
    const admin = await signIn({ agencyId: agency, role: 'ADMIN' });
    // 44 registered one by one, then the last 5 places and 5 more asked for at once.
    for (let i = 0; i < DEFAULT_AGENT_LIMIT - 6; i++)
      await registerTestAgent(uniqueEmail('cap'), { agencyId: agency });

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => add(admin, { identifier: uniqueEmail('more') })),
    );
    await setAgentLimit(testTable, agency, DEFAULT_AGENT_LIMIT + 1);
    const raised = await add(admin, { identifier: uniqueEmail('raised') });
    const beyond = await add(admin, { identifier: uniqueEmail('beyond') });

    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => a.body.error.code)).toEqual(Array(5).fill('LIMIT_REACHED'));
    expect(raised.status).toBe(201);
    expect(beyond.body.error.code).toBe('LIMIT_REACHED');
    expect((await counters(agency))?.agents).toBe(DEFAULT_AGENT_LIMIT + 1);
  }, 40_000);
});

describe('agency bounds: phone identifiers', () => {
  it.each([
    ['a UK premium-rate number', '+449061234567'],
    ['a UK shared-cost number', '+448451234567'],
    ['a UK 087 number', '+448712345678'],
    ['a UK personal number', '+447012345678'],
    ['a German premium-rate number', '+499001234567'],
    ['an Irish premium-rate number', '+35315201234'],
    ['a NANP number in Jamaica', '+18765551234'],
    ['a US premium-rate number', '+19005551234'],
    ['a French special-rate number', '+33891234567'],
    ['a country the stage does not allow', '+861391234567'],
    ['a UK drama number (Ofcom 07700 900xxx, in no plan)', '+447700900123'],
    ['+1 and 7 digits', '+10000000'],
    ['+1 and 14 digits', '+100000000000000'],
    ['a NANP number one digit short', '+1935062560'],
    ['a US toll-free number', '+18005550123'],
    ['a UK number one digit short', '+44740012345'],
  ])('refuses %s with 400 on identifier, registering nothing', async (_case, identifier) => {
    const agency = agencyOf();
    const admin = await signIn({ agencyId: agency, role: 'ADMIN' });

    const answer = await add(admin, { identifier, type: 'PHONE' });

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual(['identifier']);
    expect((await counters(agency))?.agents).toBe(1);
  });

  it('accepts a UK mobile, a US number and an Irish mobile', async () => {
    const admin = await signIn({ agencyId: agencyOf(), role: 'ADMIN' });
    const suffix = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');

    const answers = await Promise.all(
      [`+44740012${suffix}`, `+1202555${suffix}`, `+35385123${suffix}`].map((identifier) =>
        add(admin, { identifier, type: 'SMS' }),
      ),
    );

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
  });
});

describe('agency bounds: the hourly code budget of an agency', () => {
  it('sends at most the budget per clock hour across the agency’s agents, then 429 RATE_LIMITED until the next hour', async () => {
    const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 30, 0));
    const send = sendOtpHandler(
      { ...testContext, config: { ...testContext.config, AGENCY_CODES_PER_HOUR: 3, OTP_SEND_MIN_MS: 0 } },
      await createCodeSender(),
    );
    const agency = agencyOf();
    const agents = await Promise.all(
      Array.from({ length: 5 }, () => registerTestAgent(uniqueEmail('budget'), { agencyId: agency })),
    );
    const other = await registerTestAgent(uniqueEmail('elsewhere'), { agencyId: agencyOf() });
    const ask = (identifier: string) =>
      invoke(send, { path: '/api/auth/send-otp', body: { identifier, type: 'EMAIL' } });

    const answers = await Promise.all(agents.map((a) => ask(a.identifier)));
    const elsewhere = await ask(other.identifier);
    advance(30 * 60_000); // 10:00: a new hour, a new budget
    const nextHour = await ask(agents[4]?.identifier ?? '');

    const sent = (await readOutbox()).filter((e) => agents.some((a) => a.identifier === e.to));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
    const spent = answers.filter((a) => a.status === 429);
    expect(spent).toHaveLength(2);
    for (const answer of spent) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(answer.headers['Retry-After']).toBe('1800');
    }
    expect(sent).toHaveLength(4); // 3 in the first hour, 1 in the next
    expect(elsewhere.status).toBe(202);
    expect(nextHour.status).toBe(202);
    const lines = capturedLogLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.message === 'agency code budget spent');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'warn', agency_id: agency });
  });
});
