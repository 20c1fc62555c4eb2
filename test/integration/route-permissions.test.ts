import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { handleDeliveryMessage } from '#shared/events/deliver.ts';
import type { DeliveryMessage } from '#shared/events/delivery-item.ts';
import { streamHandler } from '#shared/events/handlers.ts';
import { fileNoticeSender } from '#shared/events/notice-sender.ts';
import { systemResolver } from '#shared/events/webhook-url.ts';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import type { FunctionSpec } from '#shared/function-spec.ts';
import { eventFunctions, routes, sweepJob } from '#shared/routes.ts';
import { registerTestAgent, testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { recordTableActions } from '#test/helpers/dynamo-calls.ts';
import { lastCodeFor } from '#test/helpers/outbox.ts';
import { handler as agentsCreate } from '#test/helpers/routes/agency/agents-create.ts';
import { handler as agentsList } from '#test/helpers/routes/agency/agents-list.ts';
import { handler as agentsUpdate } from '#test/helpers/routes/agency/agents-update.ts';
import { handler as webhooksCreate } from '#test/helpers/routes/agency/webhooks-create.ts';
import { handler as webhooksDelete } from '#test/helpers/routes/agency/webhooks-delete.ts';
import { handler as webhooksList } from '#test/helpers/routes/agency/webhooks-list.ts';
import { handler as webhooksPing } from '#test/helpers/routes/agency/webhooks-ping.ts';
import { handler as airportsSearch } from '#test/helpers/routes/airports/search.ts';
import { handler as logout } from '#test/helpers/routes/auth/logout.ts';
import { handler as refresh } from '#test/helpers/routes/auth/refresh.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as currentSession } from '#test/helpers/routes/auth/session.ts';
import { handler as verifyOtp } from '#test/helpers/routes/auth/verify-otp.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as change } from '#test/helpers/routes/bookings/change.ts';
import { handler as changeSearch } from '#test/helpers/routes/bookings/change-search.ts';
import { handler as confirm } from '#test/helpers/routes/bookings/confirm.ts';
import { handler as create } from '#test/helpers/routes/bookings/create.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as itinerary } from '#test/helpers/routes/bookings/itinerary.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { handler as note } from '#test/helpers/routes/bookings/note.ts';
import { handler as refundQuote } from '#test/helpers/routes/bookings/refund-quote.ts';
import { handler as resend } from '#test/helpers/routes/bookings/resend.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { handler as offerServices } from '#test/helpers/routes/flights/services.ts';
import { handler as sweep } from '#test/helpers/routes/jobs/sweep.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';
import { startReceiver } from '#test/helpers/webhook-receiver.ts';

/**
 * DynamoDB Local does not enforce IAM, so this proves the grants another way: every DynamoDB action
 * each route's handler performs, over its happy and failure paths, must be exactly the actions the
 * route table grants it (and so the actions the stack puts in its role).
 */
const recorded = recordTableActions(context.db);
const { used } = recorded;
afterAll(() => {
  recorded.stop();
});

type Handler = typeof sendOtp;
const as = (routeId: string, handler: Handler, body: unknown, headers: Record<string, string> = {}) =>
  recorded.as(routeId, () => invoke(handler, { body, headers }));

/** Every TransactWriteItems fails as a DynamoDB fault would, until `failTransactions` is removed. */
const failTransactions = () =>
  context.db.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (ctx.commandName === 'TransactWriteItemsCommand')
        throw Object.assign(new Error('boom'), {
          name: 'InternalServerError',
          $fault: 'server',
          $metadata: {},
        });
      return next(args);
    },
    { step: 'initialize', name: 'failTransactions', priority: 'low' },
  );

describe('route table grants', () => {
  it('match exactly what each handler does', async () => {
    const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const agent = await registerTestAgent(undefined, { role: 'ADMIN', agencyId: 'perm-agency' });
    const identifier = agent.identifier;

    await as('send-otp', sendOtp, { identifier, type: 'EMAIL' });
    await as('send-otp', sendOtp, { identifier, type: 'EMAIL' }); // throttled
    await as('send-otp', sendOtp, { identifier: 'nobody@example.com', type: 'EMAIL' });
    const code = await lastCodeFor(identifier);
    await as('verify-otp', verifyOtp, { identifier, code: code === '000000' ? '000001' : '000000' });
    const session = await as('verify-otp', verifyOtp, { identifier, code });
    const auth = { Authorization: `Bearer ${session.body.data.verification_token}` };
    await as('session', currentSession, {}, auth);
    await as('session', currentSession, {}); // 401
    await as('airports-search', airportsSearch, { query: 'lon' }, auth);
    await as('airports-search', airportsSearch, { query: '' }, auth); // 400
    // A sign-in snapshot stored before it kept the role: verify-otp reads the role from the state.
    await testTable.db.send(
      new UpdateCommand({
        TableName: testTable.tableName,
        Key: otpChallengeKey(identifier),
        UpdateExpression: 'REMOVE #agent.#role',
        ExpressionAttributeNames: { '#agent': 'agent', '#role': 'role' },
      }),
    );
    advance(31_000);
    await as('send-otp', sendOtp, { identifier, type: 'EMAIL' });
    await as('verify-otp', verifyOtp, { identifier, code: await lastCodeFor(identifier) });

    const query = { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-02', max_connections: 0 };
    const offers: Json[] = (await as('search', search, query, auth)).body.data;
    await as('search', search, { ...query, max_connections: 1 }, auth);
    const trips: Json[] = (await as('search', search, { ...query, return_date: '2026-12-09' }, auth)).body
      .data;
    await as('offer-services', offerServices, { flight_id: offers[0].id }, auth);

    const booked = await as('booking-create', create, bookingBody(offers[0]), {
      ...auth,
      'Idempotency-Key': 'perm-1',
    });
    await as('booking-create', create, bookingBody(offers[0]), { ...auth, 'Idempotency-Key': 'perm-1' }); // replay
    const second = offers[1];
    await testTable.db.send(
      new PutCommand({
        TableName: testTable.tableName,
        Item: { ...inventoryKey(second.outbound.segments[0].flight_number, '2026-12-02'), sold_Y: 100 },
      }),
    );
    await as('booking-create', create, bookingBody(second), { ...auth, 'Idempotency-Key': 'perm-2' }); // PRICE_CHANGED, stored
    failTransactions();
    await as('booking-create', create, bookingBody(offers[2]), { ...auth, 'Idempotency-Key': 'perm-3' }); // 503, key released
    context.db.middlewareStack.remove('failTransactions');

    const trip = await as('booking-create', create, bookingBody(trips[0]), auth);
    await as('booking-create', create, { ...bookingBody(trips[0]), total_price: 1 }, auth); // booked: 410 after a marker read
    await as('booking-cancel', cancel, { booking_id: trip.body.data.booking_id }, auth);

    // Changes (business class: every fare changeable): change-search, a change at a moved total (the
    // refusal stored under its key), a change whose transaction fails (503, key released), the change.
    const business = { ...query, departure_date: '2026-12-03', travel_class: 'BUSINESS' };
    const changeable = (await as('search', search, business, auth)).body.data[0];
    const toChange = (await as('booking-create', create, bookingBody(changeable), auth)).body.data;
    const changeSearchBody = {
      booking_id: toChange.booking_id,
      journeys: [{ index: 0, departure_date: '2026-12-05' }],
    };
    const changeOffer = (await as('booking-change-search', changeSearch, changeSearchBody, auth)).body
      .data[0];
    const changeBody = {
      booking_id: toChange.booking_id,
      change_offer_id: changeOffer.id,
      change_total: changeOffer.change_total,
    };
    const movedTotal = { amount: changeOffer.change_total.amount + 1, currency: 'EUR' };
    await as(
      'booking-change',
      change,
      { ...changeBody, change_total: movedTotal },
      { ...auth, 'Idempotency-Key': 'perm-ch1' },
    ); // 409
    failTransactions();
    await as('booking-change', change, changeBody, { ...auth, 'Idempotency-Key': 'perm-ch2' }); // 503, key released
    context.db.middlewareStack.remove('failTransactions');
    await as('booking-change', change, changeBody, { ...auth, 'Idempotency-Key': 'perm-ch3' });

    // Holds: confirm (with a key, then its replay), cancel, and a hold left to lapse for the sweep.
    const later = { ...query, departure_date: '2026-12-10' };
    const holdable: Json[] = (await as('search', search, later, auth)).body.data;
    const hold = (n: number) =>
      as('booking-create', create, { ...bookingBody(holdable[n]), hold: true }, auth);
    const held = (await hold(0)).body.data;
    const confirmBody = {
      booking_id: held.booking_id,
      total_price: held.total_price,
      currency: held.currency,
    };
    await as('booking-confirm', confirm, confirmBody, { ...auth, 'Idempotency-Key': 'perm-c' });
    await as('booking-confirm', confirm, confirmBody, { ...auth, 'Idempotency-Key': 'perm-c' }); // replay
    await as('booking-confirm', confirm, { ...confirmBody, total_price: 1 }, auth); // not held
    await as('booking-cancel', cancel, { booking_id: (await hold(1)).body.data.booking_id }, auth);
    const lapsing = (await hold(2)).body.data;
    const unconfirmed = (await hold(3)).body.data;
    const lateForItinerary = (await hold(4)).body.data;
    // Holds by deadline: the listing entries, then their bookings (BatchGetItem).
    await as('booking-list', list, { sort: 'deadline', q: 'lovelace', created_by: 'me' }, auth);
    advance(25 * 3600_000);
    // Reads of late holds store their expiry before answering it (the list's page holds the others).
    const lateAuth = (await signIn({ agencyId: 'perm-agency' })).headers;
    await as('booking-get', get, { booking_id: unconfirmed.booking_id }, lateAuth);
    await as('booking-itinerary', itinerary, { booking_id: lateForItinerary.booking_id }, lateAuth);
    await as('booking-list', list, {}, lateAuth);
    await recorded.as(sweepJob.id, () => sweep());
    await as('booking-confirm', confirm, { ...confirmBody, booking_id: lapsing.booking_id }, auth); // expired
    await as('booking-confirm', confirm, { ...confirmBody, booking_id: unconfirmed.booking_id }, auth); // expired
    advance(-25 * 3600_000);

    const { booking_id, pnr } = booked.body.data;
    await as('booking-get', get, { booking_id }, auth);
    await as('booking-get', get, { pnr }, auth);
    await as('booking-list', list, { limit: 1 }, auth);
    await as('booking-note', note, { booking_id, text: 'call back' }, auth);
    await as('booking-note', note, { booking_id: unconfirmed.booking_id, text: 'late hold' }, auth);
    await as('booking-itinerary', itinerary, { booking_id }, auth);
    await as('booking-resend', resend, { booking_id }, auth);
    await as('booking-resend', resend, { booking_id: unconfirmed.booking_id }, auth);
    await as('booking-refund-quote', refundQuote, { booking_id }, auth);
    await as('booking-cancel', cancel, { booking_id, refund: { amount: 0.01, currency: 'EUR' } }, auth); // 409
    await as('booking-list', list, { limit: 1, status: ['CANCELLED', 'EXPIRED'] }, auth);
    await as('booking-cancel', cancel, { booking_id }, auth);
    await as('booking-cancel', cancel, { booking_id }, auth); // already cancelled
    await as('booking-refund-quote', refundQuote, { booking_id }, auth); // not cancellable
    const added = await as(
      'agency-agents-create',
      agentsCreate,
      { identifier: 'perm-new@example.com', type: 'EMAIL', name: 'New' },
      auth,
    );
    await as(
      'agency-agents-create',
      agentsCreate,
      { identifier: 'perm-new@example.com', type: 'EMAIL', name: 'Again' },
      auth,
    ); // taken
    await as('agency-agents-list', agentsList, { limit: 1 }, auth);
    await as('agency-agents-update', agentsUpdate, { agent_id: added.body.data.id, role: 'ADMIN' }, auth);
    await as('agency-agents-update', agentsUpdate, { agent_id: added.body.data.id, active: false }, auth);
    await as('agency-agents-update', agentsUpdate, { agent_id: agent.id, active: false }, auth); // LAST_ADMIN

    const receiver = await startReceiver((n) => (n === 1 ? 500 : 204));
    const hook = await as('agency-webhooks-create', webhooksCreate, { url: receiver.url }, auth);
    receiver.useSecret(hook.body.data.secret);
    for (let i = 0; i < 4; i++)
      await as('agency-webhooks-create', webhooksCreate, { url: receiver.url }, auth);
    await as('agency-webhooks-create', webhooksCreate, { url: receiver.url }, auth); // LIMIT_REACHED
    await as('agency-webhooks-list', webhooksList, {}, auth);
    const extra = (await as('agency-webhooks-list', webhooksList, {}, auth)).body.data.filter(
      (endpoint: Json) => endpoint.id !== hook.body.data.id,
    );
    for (const endpoint of extra)
      await as('agency-webhooks-delete', webhooksDelete, { webhook_id: endpoint.id }, auth);
    await as('agency-webhooks-delete', webhooksDelete, { webhook_id: extra[0].id }, auth); // 404
    for (let i = 0; i < 11; i++)
      await as('agency-webhooks-ping', webhooksPing, { webhook_id: hook.body.data.id }, auth); // 10, then 429
    await as('agency-webhooks-ping', webhooksPing, { webhook_id: extra[0].id }, auth); // 404

    // The events function on the stream record of a new booking, as Lambda hands it over, twice
    // (the second finds the notice sent and the delivery made); then the delivery function's attempts.
    const { Item } = await context.db.send(
      new GetCommand({ TableName: context.tableName, Key: bookingKey(booked.body.data.booking_id) }),
    );
    const record = { eventName: 'INSERT', dynamodb: { NewImage: marshall(Item ?? {}), SequenceNumber: '1' } };
    const queued: DeliveryMessage[] = [];
    const eventsDeps = {
      db: context.db,
      tableName: context.tableName,
      clock: { now: () => Date.now() },
      log: context.log,
      notices: fileNoticeSender(process.env.DATA_DIR ?? ''),
      queue: { enqueue: async (message: DeliveryMessage) => void queued.push(message) },
    };
    await recorded.as('events', () => streamHandler(eventsDeps)({ Records: [record, record] as never }));
    const deliveryDeps = {
      ...eventsDeps,
      keys: context.keys,
      urlPolicy: 'local' as const,
      resolve: systemResolver,
      timeScale: 0,
    };
    await recorded.as('deliveries', async () => {
      for (let i = 0; i < 3 && queued.length > 0; i++) {
        const message = queued.shift();
        if (message) await handleDeliveryMessage({ ...message, due_at: Date.now() }, deliveryDeps); // 500, then 204
      }
    });
    await receiver.close();
    expect(receiver.deliveries.map((d) => d.status)).toEqual([500, 204]);

    const renewed = await as('refresh', refresh, {}, auth);
    await as('refresh', refresh, {}, auth); // 401: revoked by the refresh
    await as('logout', logout, {}, { Authorization: `Bearer ${renewed.body.data.verification_token}` });

    for (const route of [...routes, ...eventFunctions] as readonly FunctionSpec[]) {
      const actions = [...(used.get(route.id) ?? [])].sort();
      expect(actions, route.id).toEqual([...route.table].sort());
    }
    // The sweep settles a remote supplier's PENDING bookings too (a PNR's Put): with the built-in
    // network it uses a part of its grant, and duffel-permissions.test.ts checks the whole of it.
    const sweeping = [...(used.get(sweepJob.id) ?? [])].sort();
    expect(sweeping).toEqual(sweepJob.table.filter((action) => action !== 'PutItem').sort());
  });
});
