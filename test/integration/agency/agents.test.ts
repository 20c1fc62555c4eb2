import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentKey } from '#shared/agency/agent-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, searchOffers, startBookingTest } from '#test/helpers/bookings.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { respellings } from '#test/helpers/respell.ts';
import { handler as agentsCreate } from '#test/helpers/routes/agency/agents-create.ts';
import { handler as agentsList } from '#test/helpers/routes/agency/agents-list.ts';
import { handler as agentsUpdate } from '#test/helpers/routes/agency/agents-update.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as verifyOtp } from '#test/helpers/routes/auth/verify-otp.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as create } from '#test/helpers/routes/bookings/create.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';

type Handler = typeof agentsList;
const agencyOf = () => `agency-${Math.random().toString(36).slice(2, 8)}`;
let agency: string;
let admin: TestSession;
let date: string;
let advance: (ms: number) => void;

beforeEach(async () => {
  ({ date, advance } = await startBookingTest());
  agency = agencyOf();
  admin = await signIn({ agencyId: agency, role: 'ADMIN', name: 'Alice Admin' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const call = (handler: Handler, body: unknown, who: { headers: Record<string, string> }) =>
  invoke(handler, { path: '/api/agency/agents/x', body, headers: who.headers });
const addAgent = (body: Record<string, unknown>, who: { headers: Record<string, string> } = admin) =>
  call(agentsCreate, { type: 'EMAIL', name: 'New Colleague', ...body }, who);
const newIdentifier = () => `colleague-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** Signs an agent in through send-otp and verify-otp, as the agent would. */
async function signInAs(identifier: string) {
  await invoke(sendOtp, { path: '/api/auth/send-otp', body: { identifier, type: 'EMAIL' } });
  const code = await lastCodeFor(identifier).catch(() => '000000');
  return invoke(verifyOtp, { path: '/api/auth/verify-otp', body: { identifier, code } });
}
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe('agency administration: who may', () => {
  it('answers 403 FORBIDDEN to an AGENT on every agency route, and changes nothing', async () => {
    const agent = await signIn({ agencyId: agency });

    const answers = await Promise.all([
      call(agentsList, {}, agent),
      addAgent({ identifier: newIdentifier() }, agent),
      call(agentsUpdate, { agent_id: admin.agent.id, role: 'AGENT' }, agent),
    ]);

    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('FORBIDDEN');
    }
    expect((await call(agentsList, {}, admin)).body.data.map((a: { role: string }) => a.role).sort()).toEqual(
      ['ADMIN', 'AGENT'],
    );
  });

  it('lets an ADMIN list only its own agency’s agents, by identifier, a page at a time', async () => {
    const other = await signIn({ agencyId: agencyOf(), role: 'ADMIN' });
    for (let i = 0; i < 3; i++) await addAgent({ identifier: `p${i}-${newIdentifier()}` });

    const all = await call(agentsList, {}, admin);
    const first = await call(agentsList, { limit: 2 }, admin);
    const rest = await call(agentsList, { limit: 2, cursor: first.body.meta.next_cursor }, admin);
    const theirs = await call(agentsList, {}, other);

    expect(all.body.data).toHaveLength(4);
    expect(all.body.meta.next_cursor).toBeNull();
    expect([...first.body.data, ...rest.body.data]).toEqual(all.body.data);
    expect(rest.body.meta.next_cursor).toBeNull();
    expect(theirs.body.data.map((a: { id: string }) => a.id)).toEqual([other.agent.id]);
  });
});

describe('agency administration: adding agents', () => {
  it('adds an agent who can sign in at once, recording who added it', async () => {
    const identifier = newIdentifier();

    const added = await addAgent({ identifier: ` ${identifier.toUpperCase()} `, role: 'AGENT' });
    const signedIn = await signInAs(identifier);

    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      id: expect.stringMatching(/^agt_[0-9a-f]{24}$/),
      name: 'New Colleague',
      identifier,
      type: 'EMAIL',
      role: 'AGENT',
      active: true,
      created_at: expect.any(String),
      created_by: { id: admin.agent.id, name: 'Alice Admin' },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.agent.agency_id).toBe(agency);
  });

  it('refuses an identifier already registered, in this agency or another (409 IDENTIFIER_TAKEN)', async () => {
    const stranger = await signIn({ agencyId: agencyOf() });

    const ours = await addAgent({ identifier: admin.agent.identifier });
    const theirs = await addAgent({ identifier: stranger.agent.identifier.toUpperCase() });

    for (const answer of [ours, theirs]) expect(answer.body.error?.code).toBe('IDENTIFIER_TAKEN');
  });

  it('creates exactly one agent when 10 admins add the same identifier at once', async () => {
    const identifier = newIdentifier();

    const answers = await Promise.all(Array.from({ length: 10 }, () => addAgent({ identifier })));

    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.body.error?.code === 'IDENTIFIER_TAKEN')).toHaveLength(9);
  });

  it.each([
    ['a phone number sent as EMAIL', { identifier: '+447700900123' }, 'identifier'],
    ['an e-mail sent as PHONE', { identifier: 'x@example.com', type: 'PHONE' }, 'identifier'],
    ['a name of 101 characters', { identifier: 'y@example.com', name: 'A'.repeat(101) }, 'name'],
    ['a blank name', { identifier: 'z@example.com', name: '   ' }, 'name'],
    ['an unknown role', { identifier: 'w@example.com', role: 'OWNER' }, 'role'],
    ['the operator’s name', { identifier: 'v@example.com', name: 'Operator (CLI)' }, 'name'],
    [
      'the operator’s name re-spelled',
      { identifier: 'u@example.com', name: ' ＯＰＥＲＡＴＯＲ  - cli ' },
      'name',
    ],
    ['“operator” alone', { identifier: 't@example.com', name: 'operator' }, 'name'],
    [
      'a name with a control character (U+001D)',
      { identifier: 's@example.com', name: 'Ada\u001DBoss' },
      'name',
    ],
    ['a name with a NUL', { identifier: 'r@example.com', name: 'Ada\u0000' }, 'name'],
    [
      'a name with an unassigned code point (U+0378)',
      { identifier: 'q@example.com', name: 'Ada \u0378' },
      'name',
    ],
    ['a name with a right-to-left override', { identifier: 'p@example.com', name: 'Ada \u202Exob' }, 'name'],
    ['a name with a lone surrogate', { identifier: 'o@example.com', name: 'Ada \uD800' }, 'name'],
    ['a name with a line separator', { identifier: 'n@example.com', name: 'Ada\u2028Boss' }, 'name'],
  ])('refuses %s with 400 on the field', async (_case, body, path) => {
    const answer = await addAgent(body);

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('accepts names in any script, with the joiners some scripts need', async () => {
    const names = ['Grace Hopper', 'Ada Lovelace-King', '李小龍', 'محمد', 'क्‍ष Devi', 'José Ñúñez'];

    const answers = await Promise.all(names.map((name) => addAgent({ identifier: newIdentifier(), name })));

    expect(answers.map((a) => [a.status, a.body.data?.name])).toEqual(names.map((name) => [201, name]));
  });

  it('refuses a control character in a renamed agent with 400 on name, changing nothing', async () => {
    const added = await addAgent({ identifier: newIdentifier(), name: 'Before' });

    const answer = await call(agentsUpdate, { agent_id: added.body.data.id, name: 'After\u001D' }, admin);
    const listed = await call(agentsList, {}, admin);

    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual(['name']);
    expect(listed.body.data.find((a: { id: string }) => a.id === added.body.data.id)?.name).toBe('Before');
  });

  it('counts a name in code points after NFC: 100 characters with a decomposed accent fit', async () => {
    const answer = await addAgent({ identifier: newIdentifier(), name: `${'A'.repeat(99)}e\u0301` });

    expect(answer.status).toBe(201);
    expect(answer.body.data.name).toBe(`${'A'.repeat(99)}é`);
  });
});

describe('agency administration: changing agents', () => {
  it('answers 404 for another agency’s agent, exactly as for one that does not exist', async () => {
    const stranger = await signIn({ agencyId: agencyOf() });

    const theirs = await call(agentsUpdate, { agent_id: stranger.agent.id, active: false }, admin);
    const none = await call(agentsUpdate, { agent_id: `agt_${'0'.repeat(24)}`, active: false }, admin);
    const still = await call(search, { origin: 'LHR', destination: 'JFK', departure_date: date }, stranger);

    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual({ ...none.body.error, request_id: theirs.body.error.request_id });
    expect(still.status).toBe(200);
  });

  it('ends every session of a deactivated agent on every route at once, bearer and cookie, for good', async () => {
    const identifier = newIdentifier();
    const added = (await addAgent({ identifier })).body.data;
    const one = (await signInAs(identifier)).body.data.verification_token;
    const cookie = { headers: { Cookie: `__Host-session=${one}`, 'Content-Type': 'application/json' } };
    const offer = (
      await searchOffers({ headers: bearer(one).headers } as TestSession, { departure_date: date })
    )[0];

    await call(agentsUpdate, { agent_id: added.id, active: false }, admin);
    const routes: [Handler, unknown][] = [
      [search, { origin: 'LHR', destination: 'JFK', departure_date: date }],
      [create, bookingBody(offer)],
      [get, { pnr: 'QXBTRV' }],
      [list, {}],
      [cancel, { booking_id: `bkg_${'0'.repeat(26)}` }],
      [logout, {}],
      [agentsList, {}],
    ];
    const answers = await Promise.all(
      routes.flatMap(([handler, body]) => [call(handler, body, bearer(one)), call(handler, body, cookie)]),
    );
    advance(31_000); // past the send throttle
    const signInAgain = await signInAs(identifier);
    await call(agentsUpdate, { agent_id: added.id, active: true }, admin);
    const revived = await call(list, {}, bearer(one));
    advance(31_000);
    const fresh = (await signInAs(identifier)).body.data?.verification_token;
    const afterwards = await call(list, {}, bearer(fresh));

    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
    }
    expect(signInAgain.status).toBe(401);
    expect(revived.status).toBe(401);
    expect(afterwards.status).toBe(200);
  });

  it('applies a role change on the agent’s next request, both ways', async () => {
    const agent = await signIn({ agencyId: agency });

    const before = await call(agentsList, {}, agent);
    await call(agentsUpdate, { agent_id: agent.agent.id, role: 'ADMIN' }, admin);
    const promoted = await call(agentsList, {}, agent);
    await call(agentsUpdate, { agent_id: agent.agent.id, role: 'AGENT' }, admin);
    const demoted = await call(agentsList, {}, agent);

    expect([before.status, promoted.status, demoted.status]).toEqual([403, 200, 403]);
  });

  it('never leaves the agency without an active ADMIN (409 LAST_ADMIN)', async () => {
    const demoteSelf = await call(agentsUpdate, { agent_id: admin.agent.id, role: 'AGENT' }, admin);
    const deactivateSelf = await call(agentsUpdate, { agent_id: admin.agent.id, active: false }, admin);
    const stillAdmin = await call(agentsList, {}, admin);

    expect(demoteSelf.body.error.code).toBe('LAST_ADMIN');
    expect(deactivateSelf.body.error.code).toBe('LAST_ADMIN');
    expect(stillAdmin.status).toBe(200);
  });

  it('keeps one ADMIN when two ADMINs demote each other at the same moment: the second is no ADMIN any more', async () => {
    for (let round = 0; round < 5; round++) {
      const team = agencyOf();
      const [a, b] = await Promise.all([
        signIn({ agencyId: team, role: 'ADMIN' }),
        signIn({ agencyId: team, role: 'ADMIN' }),
      ]);

      const answers = await Promise.all([
        call(agentsUpdate, { agent_id: b.agent.id, role: 'AGENT' }, a),
        call(agentsUpdate, { agent_id: a.agent.id, role: 'AGENT' }, b),
      ]);
      const roles = await Promise.all([call(agentsList, {}, a), call(agentsList, {}, b)]);

      // Whoever's change commits second has lost the right to make it (403), or would leave no ADMIN (409).
      expect(answers.map((x) => x.status).sort()[0]).toBe(200);
      expect(['FORBIDDEN', 'LAST_ADMIN']).toContain(answers.find((x) => x.status !== 200)?.body.error.code);
      expect(roles.map((r) => r.status).sort()).toEqual([200, 403]);
    }
  });

  it('records who changed an agent and when; refuses an update that changes nothing', async () => {
    const added = (await addAgent({ identifier: newIdentifier() })).body.data;

    const renamed = await call(agentsUpdate, { agent_id: added.id, name: 'Renamed' }, admin);
    const empty = await call(agentsUpdate, { agent_id: added.id }, admin);
    const impersonating = await call(agentsUpdate, { agent_id: added.id, name: 'Operator (CLI)' }, admin);

    expect(renamed.body.data).toMatchObject({
      name: 'Renamed',
      updated_at: expect.any(String),
      updated_by: { id: admin.agent.id, name: 'Alice Admin' },
    });
    expect(empty.status).toBe(400);
    expect(impersonating.status).toBe(400);
    expect(impersonating.body.error.details.map((d: { path: string }) => d.path)).toEqual(['name']);
  });
});

describe('audit of bookings', () => {
  it('shows who booked and who cancelled on get and list, and logs agent and agency ids', async () => {
    const colleague = await signIn({ agencyId: agency, name: 'Bob Booker' });
    const [offer] = await searchOffers(colleague, { departure_date: date });
    const booked = (await book(colleague, bookingBody(offer))).body.data;

    await call(cancel, { booking_id: booked.booking_id }, admin);
    const fetched = await call(get, { booking_id: booked.booking_id }, admin);
    const listed = await call(list, {}, colleague);

    const who = {
      created_by: { id: colleague.agent.id, name: 'Bob Booker' },
      cancelled_by: { id: admin.agent.id, name: 'Alice Admin' },
    };
    expect(booked.created_by).toEqual(who.created_by);
    expect(fetched.body.data).toMatchObject(who);
    expect(listed.body.data[0]).toMatchObject(who);
    const line = capturedLogLines
      .map((l) => JSON.parse(l))
      .find((l) => l.path === '/api/flights/booking/create');
    expect(line).toMatchObject({ agent_id: colleague.agent.id, agency_id: agency });
    expect(JSON.stringify(line)).not.toContain(colleague.agent.identifier);
  });
});

describe('agents stored before roles and session states', () => {
  it('read as AGENTs, cannot be used until migrated, and migrate to a listed agent whose tokens work', async () => {
    const identifier = newIdentifier();
    const legacy = {
      id: `agt_${'ab'.repeat(12)}`,
      name: 'Old Timer',
      agency_id: agency,
      identifier,
      type: 'EMAIL',
      active: true,
    };
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: {
          ...agentKey(identifier),
          gsi1pk: 'AGENTS',
          gsi1sk: identifier,
          ...legacy,
          created_at: '2026-01-01T00:00:00Z',
        },
      }),
    );
    await testTable.db.send(
      new UpdateCommand({
        TableName: testTable.tableName,
        Key: otpChallengeKey(identifier),
        UpdateExpression: 'SET #agent = :agent',
        ExpressionAttributeNames: { '#agent': 'agent' },
        ExpressionAttributeValues: {
          ':agent': { id: legacy.id, name: legacy.name, agency_id: agency, active: true },
        },
      }),
    );
    const before = (await signInAs(identifier)).body.data.verification_token;
    const refusedBefore = await call(list, {}, bearer(before));

    const migrated = await changeAgentByIdentifier(testTable, testContext.clock, identifier, {});
    const listed = await call(agentsList, {}, admin);
    advance(31_000);
    const after = (await signInAs(identifier)).body.data.verification_token;

    expect(refusedBefore.status).toBe(401);
    expect(migrated).toMatchObject({ id: legacy.id, role: 'AGENT', updated_by: { id: 'operator' } });
    expect(listed.body.data.map((a: { identifier: string }) => a.identifier)).toContain(identifier);
    expect((await call(list, {}, bearer(after))).status).toBe(200);
  });
});

describe('agency administration: ids and cursors only as issued, changes that race', () => {
  it('refuses every other spelling of an agent id and of a list cursor with 400, changing nothing', async () => {
    const added = (await addAgent({ identifier: newIdentifier() })).body.data;
    await addAgent({ identifier: newIdentifier() });
    const cursor: string = (await call(agentsList, { limit: 1 }, admin)).body.meta.next_cursor;
    const ids = [
      added.id.toUpperCase(),
      ` ${added.id}`,
      `${added.id} `,
      `${added.id}=`,
      added.id.replace('agt_', 'AGT_'),
    ];

    const updates = await Promise.all(
      ids.map((agent_id) => call(agentsUpdate, { agent_id, active: false }, admin)),
    );
    const pages = await Promise.all(
      Object.values(respellings(cursor)).map((spelling) =>
        call(agentsList, { limit: 1, cursor: spelling }, admin),
      ),
    );
    const still = (await call(agentsList, {}, admin)).body.data.find(
      (a: { id: string }) => a.id === added.id,
    );

    for (const answer of [...updates, ...pages]) expect(answer.status).toBe(400);
    expect(pages[0]?.body.error.details).toEqual([
      { path: 'cursor', message: 'is not a cursor this API returned' },
    ]);
    expect(still.active).toBe(true);
  });

  it('applies both of two changes to one agent sent at the same moment (the loser re-reads and retries)', async () => {
    const added = (await addAgent({ identifier: newIdentifier() })).body.data;

    const [renamed, promoted] = await Promise.all([
      call(agentsUpdate, { agent_id: added.id, name: 'Renamed At Once' }, admin),
      call(agentsUpdate, { agent_id: added.id, role: 'ADMIN' }, admin),
    ]);
    const now = (await call(agentsList, {}, admin)).body.data.find((a: { id: string }) => a.id === added.id);

    expect([renamed.status, promoted.status]).toEqual([200, 200]);
    expect(now).toMatchObject({ name: 'Renamed At Once', role: 'ADMIN' });
  });
});
