import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { assertMatchesContract, assertMatchesWebhook } from '#test/helpers/contract.ts';
import { registerReceiver, startTestPipeline } from '#test/helpers/events.ts';
import { handler as deleteWebhook } from '#test/helpers/routes/agency/webhooks-delete.ts';
import { handler as listWebhooks } from '#test/helpers/routes/agency/webhooks-list.ts';
import { handler as ping } from '#test/helpers/routes/agency/webhooks-ping.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { type Receiver, startReceiver, until } from '#test/helpers/webhook-receiver.ts';

/**
 * `POST /api/agency/webhooks/ping` (docs/API.md §4.6): the ping's event goes through the real pipeline
 * (DynamoDB Local's stream, the delivery item and queue, signing, retries) to real HTTP receivers.
 */
let pipeline: Awaited<ReturnType<typeof startTestPipeline>>;
const receivers: Receiver[] = [];
let admin: TestSession;
const newAgency = () => `ping-${Math.random().toString(36).slice(2, 8)}`;
const pingAs = (who: TestSession, webhook_id: string) =>
  invoke(ping, { path: '/api/agency/webhooks/ping', headers: who.headers, body: { webhook_id } });
const listed = async (who: TestSession) =>
  (await invoke(listWebhooks, { path: '/api/agency/webhooks/list', headers: who.headers, body: {} })).body
    .data;

beforeAll(async () => {
  pipeline = await startTestPipeline({ timeoutMs: 2000 });
});
afterAll(async () => {
  await pipeline.stop();
});
beforeEach(async () => {
  admin = await signIn({ agencyId: newAgency(), role: 'ADMIN' });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(answer?: (n: number) => number | 'hang') {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

describe('webhook ping', () => {
  it('202 with the event id; the endpoint receives a signed webhook.ping, and list shows it delivered', async () => {
    const hook = await receiver();
    const endpoint = await registerReceiver(admin, hook);
    const answer = await pingAs(admin, endpoint.id);
    expect(answer.status).toBe(202);
    assertMatchesContract('/api/agency/webhooks/ping', 202, answer.body);
    const eventId = answer.body.data.event_id;
    expect(eventId).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);

    await until('the ping delivered', () => hook.deliveries.length >= 1);
    const [delivery] = hook.deliveries;
    expect(delivery).toMatchObject({ id: eventId, verified: true, status: 204 });
    expect(delivery?.body).toEqual({
      type: 'webhook.ping',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      data: { webhook_id: endpoint.id, agency_id: admin.agent.agency_id },
    });
    assertMatchesWebhook('webhook.ping', delivery?.body);
    await until('last_delivery recorded', async () => (await listed(admin))[0]?.last_delivery !== null);
    expect((await listed(admin))[0].last_delivery).toMatchObject({
      event_id: eventId,
      outcome: 'delivered',
      http_status: 204,
    });
  });

  it('is retried like a booking event: a failing receiver gets the same webhook-id again, then it is delivered', async () => {
    const hook = await receiver((n) => (n === 1 ? 503 : 204));
    const endpoint = await registerReceiver(admin, hook);
    const eventId = (await pingAs(admin, endpoint.id)).body.data.event_id;
    await until('the retry delivered', () => hook.deliveries.length >= 2);
    expect(hook.deliveries.map((d) => [d.id, d.status, d.verified])).toEqual([
      [eventId, 503, true],
      [eventId, 204, true],
    ]);
    await until(
      'delivered recorded',
      async () => (await listed(admin))[0]?.last_delivery?.outcome === 'delivered',
    );
  });

  it('only the endpoint pinged receives it, whatever events the others take', async () => {
    const [pinged, other] = [await receiver(), await receiver()];
    const endpoint = await registerReceiver(admin, pinged, ['booking.cancelled']);
    await registerReceiver(admin, other);
    await pingAs(admin, endpoint.id);
    await until('the ping delivered', () => pinged.deliveries.length >= 1);
    await until('no delivery waiting', () => pipeline.pendingDeliveries() === 0);
    expect(other.deliveries).toEqual([]);
  });
});

describe('webhook ping: limits and rights', () => {
  it('at most 10 per endpoint in any hour, also when 12 are sent at once: 429 with Retry-After, then free again', async () => {
    const advance = freezeClock(Date.now());
    const hook = await receiver();
    const endpoint = await registerReceiver(admin, hook);
    const other = await registerReceiver(admin, await receiver());
    const answers = await Promise.all(Array.from({ length: 12 }, () => pingAs(admin, endpoint.id)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused.map((a) => [a.status, a.body.error.code])).toEqual(
      Array.from({ length: 2 }, () => [429, 'RATE_LIMITED']),
    );
    for (const answer of refused) assertMatchesContract('/api/agency/webhooks/ping', 429, answer.body);
    const again = await pingAs(admin, endpoint.id);
    expect([again.status, again.body.error.message, Number(again.headers['Retry-After'])]).toEqual([
      429,
      'At most 10 pings per endpoint an hour; try again later.',
      3600,
    ]);
    // Per endpoint: another one of the agency is not limited.
    expect((await pingAs(admin, other.id)).status).toBe(202);

    advance(59 * 60_000);
    const later = await pingAs(admin, endpoint.id);
    expect([later.status, Number(later.headers['Retry-After'])]).toEqual([429, 60]);
    advance(60_000);
    // An hour on, the first pings have left the window (a new session: the first one has expired).
    const next = await signIn({ agencyId: admin.agent.agency_id, role: 'ADMIN' });
    expect((await pingAs(next, endpoint.id)).status).toBe(202);
    expect((await pingAs(next, endpoint.id)).status).toBe(202);
  });

  it('at most 20 per agency in any hour, whatever the endpoint: 429 with Retry-After, then free again', async () => {
    const advance = freezeClock(Date.now());
    const [first, second, third] = [
      await registerReceiver(admin, await receiver()),
      await registerReceiver(admin, await receiver()),
      await registerReceiver(admin, await receiver()),
    ];
    for (const endpoint of [first, second])
      for (let i = 0; i < 10; i++) {
        expect((await pingAs(admin, endpoint.id)).status).toBe(202);
        advance(60_000);
      }

    const refused = await pingAs(admin, third.id);
    expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
      429,
      'RATE_LIMITED',
      'At most 20 pings per agency an hour; try again later.',
    ]);
    // The agency's first ping was 20 minutes ago: it leaves the window in 40.
    expect(Number(refused.headers['Retry-After'])).toBe(40 * 60);
    assertMatchesContract('/api/agency/webhooks/ping', 429, refused.body);
    // Another agency is not limited by this one.
    const stranger = await signIn({ agencyId: newAgency(), role: 'ADMIN' });
    expect((await pingAs(stranger, (await registerReceiver(stranger, await receiver())).id)).status).toBe(
      202,
    );

    advance(40 * 60_000);
    // A new session: the first one has expired.
    const next = await signIn({ agencyId: admin.agent.agency_id, role: 'ADMIN' });
    expect((await pingAs(next, third.id)).status).toBe(202);
  });

  it('deleting an endpoint and creating it again resets neither limit', async () => {
    const advance = freezeClock(Date.now());
    const hook = await receiver();
    const remove = (webhook_id: string) =>
      invoke(deleteWebhook, {
        path: '/api/agency/webhooks/delete',
        headers: admin.headers,
        body: { webhook_id },
      });
    const first = await registerReceiver(admin, hook);
    for (let i = 0; i < 10; i++) expect((await pingAs(admin, first.id)).status).toBe(202);
    expect((await pingAs(admin, first.id)).status).toBe(429);

    // The same URL again, under a new id: its ten pings of this hour are still counted.
    expect((await remove(first.id)).status).toBe(200);
    const again = await registerReceiver(admin, hook);
    const endpointRefused = await pingAs(admin, again.id);
    expect([endpointRefused.status, endpointRefused.body.error.message]).toEqual([
      429,
      'At most 10 pings per endpoint an hour; try again later.',
    ]);

    // Another URL gets its own ten, up to the agency's twenty, which deleting does not give back either.
    advance(60_000);
    const other = await registerReceiver(admin, await receiver());
    for (let i = 0; i < 10; i++) expect((await pingAs(admin, other.id)).status).toBe(202);
    await remove(other.id);
    await remove(again.id);
    const fresh = await registerReceiver(admin, await receiver());
    const agencyRefused = await pingAs(admin, fresh.id);
    expect([agencyRefused.status, agencyRefused.body.error.message]).toEqual([
      429,
      'At most 20 pings per agency an hour; try again later.',
    ]);
  });

  it("another agency's endpoint is 404, an AGENT is 403, a malformed id 400", async () => {
    const endpoint = await registerReceiver(admin, await receiver());
    const stranger = await signIn({ agencyId: newAgency(), role: 'ADMIN' });
    const agent = await signIn({ agencyId: admin.agent.agency_id, role: 'AGENT' });
    const [foreign, forbidden, malformed] = [
      await pingAs(stranger, endpoint.id),
      await pingAs(agent, endpoint.id),
      await pingAs(admin, 'whk_nope'),
    ];
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect([malformed.status, malformed.body.error.details]).toEqual([
      400,
      [{ path: 'webhook_id', message: 'must be a webhook id (whk_…)' }],
    ]);
  });

  it('an ADMIN deactivated between its session check and the write pings nothing (401)', async () => {
    const hook = await receiver();
    const endpoint = await registerReceiver(admin, hook);
    let done = false;
    testContext.db.middlewareStack.add(
      (next, ctx) => async (args) => {
        if (!done && ctx.commandName === 'TransactWriteItemsCommand') {
          done = true;
          await changeAgentByIdentifier(
            testTable,
            testContext.clock,
            admin.agent.identifier,
            { active: false },
            { force: true },
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'deactivateBeforePing' },
    );
    const answer = await pingAs(admin, endpoint.id).finally(() =>
      testContext.db.middlewareStack.remove('deactivateBeforePing'),
    );
    expect(answer.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.deliveries).toEqual([]);
  });
});
