/**
 * P4 round trips: DynamoDB, SES and SNS calls per request on the happy path, counted by an SDK
 * middleware against DynamoDB Local (SES and SNS at their stubbed clients), each against its budget.
 */

import { exampleTraveller } from '../../shared/bookings/example-traveller.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { createSearchRequest } from '../../shared/flights/search-request.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { route as routeEntry } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import { recordDynamoCalls } from '../helpers/dynamo-calls.ts';
import { type Section, table, verdict } from './lib.ts';
import type { Bench, Handler } from './setup.ts';

export async function calls(bench: Bench): Promise<Section> {
  const { context, clock, ses, sns, travelDate, newAgent, bearer, invoke, pathOf, offerFor, flightAt } =
    bench;
  bench.log('round trips per request');
  // The auth check alone: a search event with a token never used before.
  const authCheckEvent = apiEvent({
    path: pathOf('search'),
    body: { origin: 'LHR', destination: 'JFK', departure_date: travelDate },
    headers: await bearer(await newAgent('p4-auth')),
  });
  const recorded = recordDynamoCalls(context.db, 'benchCount');
  const rows: (string | number)[][] = [];
  /** Runs `action` counting its calls, records its row against `goal` and returns what it answered. */
  async function measure<T>(name: string, goal: number, action: () => Promise<T>): Promise<T> {
    recorded.calls.length = 0;
    ses.resetHistory();
    sns.resetHistory();
    const answer = await action();
    const dynamo = recorded.calls.length;
    const delivery = ses.calls().length + sns.calls().length;
    const total = dynamo + delivery;
    rows.push([
      name,
      dynamo,
      delivery,
      total,
      `≤ ${goal}`,
      verdict(total <= goal),
      recorded.calls.join(', '),
    ]);
    return answer;
  }
  try {
    /** Calls route `id` with `auth` (none: signed out). */
    const as =
      (auth: Record<string, string>) =>
      (id: string, body: unknown, headers: Record<string, string> = {}) =>
        invoke(id, pathOf(id), body, { ...auth, ...headers });
    const signedOut = as({});
    const p4Agent = await newAgent('p4');
    const p4Auth = await bearer(p4Agent);
    const identifier = p4Agent.identifier;
    // A registered agent's code spends its agency's hourly budget first: one more UpdateItem.
    await measure('send-otp', 3, () => signedOut('send-otp', { identifier, type: 'EMAIL' }));
    const sentText =
      (ses.calls()[0]?.args[0].input as { Message?: { Body?: { Text?: { Data?: string } } } })?.Message?.Body
        ?.Text?.Data ?? '';
    const code = /\b(\d{6})\b/.exec(sentText)?.[1] ?? '';
    await measure('verify-otp', 2, () => signedOut('verify-otp', { identifier, code }));
    const agent = as(p4Auth);
    const oneWay = { origin: 'LHR', destination: 'JFK', departure_date: travelDate };
    const roundTrip = { ...oneWay, return_date: addDays(travelDate, 7) };
    await measure('search (direct only)', 2, () => agent('search', { ...oneWay, max_connections: 0 }));
    await measure('search (with connections)', 4, () => agent('search', oneWay));
    await measure('search (round trip, with connections)', 3, () => agent('search', roundTrip));
    // London, New York, Los Angeles, San Francisco, Chicago, Boston, London: at most one batch read per journey.
    const cities = ['LHR', 'JFK', 'LAX', 'SFO', 'ORD', 'BOS', 'LHR'];
    const sixJourneys = {
      slices: cities.slice(1).map((destination, i) => ({
        origin: cities[i],
        destination,
        departure_date: addDays(travelDate, 2 * i),
      })),
    };
    const sixFound = await measure('search (6 journeys, with connections)', 7, () =>
      agent('search', { ...sixJourneys, limit: 1 }),
    );
    const created = await measure('booking create', 3, () =>
      agent('booking-create', offerFor(flightAt(10, 0), 0, 'ECONOMY')),
    );
    const booking_id: string = created.body.data.booking_id;
    await measure('booking create (Idempotency-Key)', 3, () =>
      agent('booking-create', offerFor(flightAt(10, 1), 0, 'ECONOMY'), { 'Idempotency-Key': 'bench' }),
    );
    const roundTripOffer = (await agent('search', { ...roundTrip, limit: 1 })).body.data[0];
    await measure('booking create (round trip)', 2, () =>
      agent('booking-create', {
        flight_id: roundTripOffer.id,
        flight_details: roundTripOffer,
        total_price: roundTripOffer.total_price,
        currency: roundTripOffer.currency,
        ...exampleTraveller,
      }),
    );
    const sixOffer = sixFound.body.data[0];
    await measure('booking create (6 journeys)', 2, () =>
      agent('booking-create', {
        flight_id: sixOffer.id,
        flight_details: sixOffer,
        total_price: sixOffer.total_price,
        currency: sixOffer.currency,
        ...exampleTraveller,
      }),
    );
    const held = await measure('booking create (hold)', 2, () =>
      agent('booking-create', { ...offerFor(flightAt(10, 2), 0, 'ECONOMY'), hold: true }),
    );
    const heldPrice = { total_price: held.body.data.total_price, currency: held.body.data.currency };
    await measure('booking confirm', 3, () =>
      agent('booking-confirm', { booking_id: held.body.data.booking_id, ...heldPrice }),
    );
    const keyed = await agent('booking-create', { ...offerFor(flightAt(10, 3), 0, 'ECONOMY'), hold: true });
    await measure('booking confirm (Idempotency-Key)', 4, () =>
      agent(
        'booking-confirm',
        {
          booking_id: keyed.body.data.booking_id,
          total_price: keyed.body.data.total_price,
          currency: keyed.body.data.currency,
        },
        { 'Idempotency-Key': 'bench-confirm' },
      ),
    );
    await measure('booking get (id)', 2, () => agent('booking-get', { booking_id }));
    await measure('booking list', 2, () => agent('booking-list', {}));
    await measure('booking cancel', 3, () => agent('booking-cancel', { booking_id }));
    const p4Admin = await bearer(await newAgent('p4-admin', 'ADMIN'));
    const admin = as(p4Admin);
    await measure('agency agents list', 2, () => admin('agency-agents-list', {}));
    const added = await measure('agency agents create', 2, () =>
      admin('agency-agents-create', {
        identifier: 'p4-colleague@example.com',
        type: 'EMAIL',
        name: 'Colleague',
      }),
    );
    await measure('agency agents update', 4, () =>
      admin('agency-agents-update', { agent_id: added.body.data.id, active: false }),
    );
    await measure('logout', 2, () => agent('logout', {}));
    const signedInAgain = as(await bearer(p4Agent));
    await measure('logout (everywhere)', 2, () => signedInAgain('logout', { everywhere: true }));
    const authOnly = httpHandler(
      routeEntry('search'),
      createSearchRequest(clock),
      async () => ({ status: 200, data: {} }),
      context,
    ) as unknown as Handler;
    await measure('the auth check alone', 1, () => authOnly(authCheckEvent, bench.lambdaContext));
  } finally {
    recorded.stop();
  }
  return {
    title: 'P4 round trips',
    lines: [
      'DynamoDB, SES and SNS calls per request on the happy path, counted by an SDK middleware against DynamoDB Local (SES/SNS counted at their stubbed clients). The goal column is the most calls allowed (for get, list, cancel and logout: the session read plus each route’s own work). Floor: the goal.',
      '',
      table(['request', 'DynamoDB', 'SES+SNS', 'total', 'goal', '', 'calls'], rows),
    ],
  };
}
