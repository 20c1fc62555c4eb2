/**
 * First-invocation events for P1 (cold-start.ts) and the memory sizing (memory.ts): for every route, and
 * for send-otp by SMS and search and booking-create of a round trip (the same bundles), `count` events
 * each valid on its own (a new code, a new offer, a booking or a hold of its own, an agency of its own
 * for webhooks), so that every cold start answers 2xx. Also records the DynamoDB calls a route makes on
 * such an event (each route's floor makes the same calls: floor.ts).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { replaceChallenge } from '../../shared/auth/otp-challenge-item.ts';
import { hashCode } from '../../shared/auth/otp-code.ts';
import { exampleTraveller } from '../../shared/bookings/example-traveller.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { routes } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import type { FloorCall } from './floor.ts';
import type { Bench } from './setup.ts';

/** A public address written as a literal, so that checking a webhook URL needs no DNS. */
const WEBHOOK_URL = 'https://1.1.1.1/bench-hook';

/** The row ids: every route's id, then the variants of the same bundles. */
export const VARIANTS = ['send-otp (SMS)', 'search (round trip)', 'booking-create (round trip)'] as const;

/** Event files by row id, `count` per row, written under `dir` (`tag` keeps two sets apart). */
export async function prepareEvents(
  bench: Bench,
  count: number,
  tag: string,
): Promise<Map<string, string[]>> {
  const { context, clock, invoke, pathOf, newAgent, bearer, offerFor, flightAt } = bench;
  const dir = join(bench.work, `events-${tag}`);
  mkdirSync(dir, { recursive: true });
  const owner = await newAgent(`${tag}-cold`);
  const auth = await bearer(owner);
  /** Bookings made now for the events that need one: `hold` for confirm. */
  const bookings = async (days: number, hold: boolean, n = count) => {
    const made: { booking_id: string; total_price: number; currency: string }[] = [];
    for (let i = 0; i < n; i++) {
      const body = { ...offerFor(flightAt(days, i), 5, 'ECONOMY'), ...(hold && { hold: true }) };
      const created = await invoke('booking-create', pathOf('booking-create'), body, auth);
      if (created.status !== 201) throw new Error(`preparing a booking: ${created.status}`);
      const { booking_id, total_price, currency } = created.body.data;
      made.push({ booking_id, total_price, currency });
    }
    return made;
  };
  const toCancel = await bookings(8, false);
  const held = await bookings(11, true);
  const [toGet] = await bookings(13, false, 1);
  // The agent routes: an agency per event (an agency may register only so many agents), with its
  // admin and a colleague to rename; the create event adds a third.
  const admins: Record<string, string>[] = [];
  const colleagues: string[] = [];
  for (let i = 0; i < count; i++) {
    const agency = `bench-agents-${tag}-${i}`;
    admins.push(await bearer(await newAgent(`${tag}-cold-admin`, 'ADMIN', 'EMAIL', agency)));
    colleagues.push((await newAgent(`${tag}-colleague`, 'AGENT', 'EMAIL', agency)).id);
  }
  // Webhooks: an agency per event (at most 5 endpoints each), holding one endpoint to list and delete
  // and one to ping.
  const webhookAdmins: Record<string, string>[] = [];
  const webhooks: string[] = [];
  const pingable: string[] = [];
  for (let i = 0; i < count; i++) {
    const headers = await bearer(await newAgent(`${tag}-hooks`, 'ADMIN', 'EMAIL', `bench-hooks-${tag}-${i}`));
    const made = await invoke(
      'agency-webhooks-create',
      pathOf('agency-webhooks-create'),
      { url: WEBHOOK_URL },
      headers,
    );
    if (made.status !== 201) throw new Error(`preparing a webhook: ${made.status}`);
    // A second endpoint to ping (delete removes the first).
    const kept = await invoke(
      'agency-webhooks-create',
      pathOf('agency-webhooks-create'),
      { url: WEBHOOK_URL },
      headers,
    );
    if (kept.status !== 201) throw new Error(`preparing a webhook: ${kept.status}`);
    webhookAdmins.push(headers);
    webhooks.push(made.body.data.id);
    pingable.push(kept.body.data.id);
  }

  /** An agency of the send events' own, so that no agency's hourly code budget runs out. */
  const codes = (i: number) => `bench-codes-${tag}-${i}`;
  /** Body and headers of route `id`'s `i`-th event. */
  async function eventOf(id: string, i: number): Promise<[unknown, Record<string, string>]> {
    switch (id) {
      case 'send-otp':
        return [
          {
            identifier: (await newAgent(`${tag}-send`, 'AGENT', 'EMAIL', codes(i))).identifier,
            type: 'EMAIL',
          },
          {},
        ];
      case 'send-otp (SMS)':
        return [
          {
            identifier: (await newAgent(`${tag}-sms`, 'AGENT', 'PHONE', codes(i))).identifier,
            type: 'PHONE',
          },
          {},
        ];
      case 'verify-otp': {
        const agent = await newAgent(`${tag}-verify`, 'AGENT', 'EMAIL', codes(i));
        const challengeId = `bench-${tag}-${i}`;
        const codeHash = hashCode(context.keys.otp, { identifier: agent.identifier, challengeId }, '123456');
        await replaceChallenge(context, agent.identifier, { challengeId, codeHash }, clock.now());
        return [{ identifier: agent.identifier, code: '123456' }, {}];
      }
      case 'logout':
        return [{}, await bearer(owner)];
      case 'session':
        return [{}, auth];
      case 'airports-search':
        return [{ query: 'lon' }, auth];
      case 'search':
        return [{ origin: 'LHR', destination: 'JFK', departure_date: bench.travelDate }, auth];
      case 'booking-create':
        return [offerFor(flightAt(9, i), 5, 'ECONOMY'), auth];
      case 'booking-get':
      case 'booking-refund-quote': // quotes the booking get reads: it changes nothing
        return [{ booking_id: toGet?.booking_id }, auth];
      case 'booking-list':
        return [{ limit: 20 }, auth];
      case 'booking-confirm': {
        const { booking_id, total_price, currency } = held[i] ?? {
          booking_id: '',
          total_price: 0,
          currency: '',
        };
        return [{ booking_id, total_price, currency }, auth];
      }
      case 'booking-cancel':
        return [{ booking_id: toCancel[i]?.booking_id }, auth];
      case 'agency-agents-list':
        return [{ limit: 20 }, admins[i] ?? {}];
      case 'agency-agents-create':
        return [
          { identifier: `${tag}-new-${i}@example.com`, type: 'EMAIL', name: 'New Colleague' },
          admins[i] ?? {},
        ];
      case 'agency-agents-update':
        return [{ agent_id: colleagues[i], name: 'Renamed Colleague' }, admins[i] ?? {}];
      case 'agency-webhooks-create':
        return [{ url: WEBHOOK_URL, events: ['booking.confirmed'] }, webhookAdmins[i] ?? {}];
      case 'agency-webhooks-list':
        return [{}, webhookAdmins[i] ?? {}];
      case 'agency-webhooks-delete':
        return [{ webhook_id: webhooks[i] }, webhookAdmins[i] ?? {}];
      case 'agency-webhooks-ping':
        return [{ webhook_id: pingable[i] }, webhookAdmins[i] ?? {}];
      case 'search (round trip)':
      case 'booking-create (round trip)': {
        // Each event books its own round trip, so the search is made first, in this process.
        const outbound = addDays(bench.today, 12 + i);
        const search = {
          origin: 'LHR',
          destination: 'JFK',
          departure_date: outbound,
          return_date: addDays(outbound, 7),
        };
        if (id === 'search (round trip)') return [search, auth];
        const offer = (await invoke('search', pathOf('search'), { ...search, limit: 1 }, auth)).body.data[0];
        const { id: flight_id, total_price, currency } = offer;
        return [{ flight_id, flight_details: offer, total_price, currency, ...exampleTraveller }, auth];
      }
    }
    throw new Error(`no cold event for ${id}`);
  }

  const files = new Map<string, string[]>();
  for (const id of [...routes.map((route) => route.id), ...VARIANTS]) {
    const path = pathOf(id.replace(/ \(.*\)$/, ''));
    const list: string[] = [];
    for (let i = 0; i < count; i++) {
      const [body, headers] = await eventOf(id, i);
      const file = join(dir, `${id.replaceAll(/\W+/g, '-')}-${i}.json`);
      writeFileSync(file, JSON.stringify(apiEvent({ path, body, headers })));
      list.push(file);
    }
    files.set(id, list);
  }
  return files;
}

/** lib-dynamodb's command for each low-level command name the SDK reports. */
const documentCommand: Record<string, string> = {
  GetItemCommand: 'GetCommand',
  BatchGetItemCommand: 'BatchGetCommand',
  QueryCommand: 'QueryCommand',
  PutItemCommand: 'PutCommand',
  UpdateItemCommand: 'UpdateCommand',
  DeleteItemCommand: 'DeleteCommand',
  TransactWriteItemsCommand: 'TransactWriteCommand',
};

/** DynamoDB's name of a lib-dynamodb command: `GetCommand` → `GetItem`. */
export const apiName = (command: string) =>
  (Object.entries(documentCommand).find(([, doc]) => doc === command)?.[0] ?? command).replace(
    /Command$/,
    '',
  );

/**
 * Records every command `db` sends until `stop()`: lib-dynamodb's command name and its input, before
 * marshalling (what a floor bundle sends through the same document client).
 */
export function recordCallInputs(db: DynamoDBDocumentClient, name = 'benchFloorCalls') {
  const calls: FloorCall[] = [];
  db.middlewareStack.add(
    (next, ctx) => async (args) => {
      const command = documentCommand[ctx.commandName ?? ''];
      if (!command) throw new Error(`no floor for ${ctx.commandName}`);
      calls.push({ command, input: JSON.parse(JSON.stringify(args.input, plainOnly)) });
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { calls, stop: () => db.middlewareStack.remove(name) };
}

/** A JSON replacer refusing what JSON would silently lose (a set, bytes). */
function plainOnly(_key: string, value: unknown) {
  if (value instanceof Set || value instanceof Uint8Array)
    throw new Error('a floor call holds a set or bytes');
  return value;
}

type Input = Record<string, unknown>;
/** The floor's copy of a key: its own partition, so that floor writes never touch the route's items. */
const floorKey = (key: Input) => ({ ...key, pk: `FLOOR#${String(key.pk)}` });
/** The floor's copy of an item, the same size, without index keys (no Query of the routes finds it). */
const floorItem = ({ pk, sk, ...rest }: Input) => ({
  ...floorKey({ pk, sk }),
  ...Object.fromEntries(Object.entries(rest).map(([name, value]) => [`f_${name}`, value])),
});
/** An update of the floor's copy of `key` setting the same values, with no condition. */
function floorUpdate({ TableName, Key, ExpressionAttributeValues, ReturnValues }: Input) {
  const values = Object.values((ExpressionAttributeValues as Input | undefined) ?? { ':none': 1 });
  return {
    TableName,
    Key: floorKey(Key as Input),
    UpdateExpression: `SET ${values.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(values.map((_, i) => [`#f${i}`, `floor_${i}`])),
    ExpressionAttributeValues: Object.fromEntries(values.map((value, i) => [`:f${i}`, value])),
    ...(ReturnValues ? { ReturnValues } : {}),
  };
}
/** A write of a transaction, on the floor's copies, unconditional; a condition check that always holds. */
function floorTransactItem(item: Input): Input {
  const [[kind, input]] = Object.entries(item) as [[string, Input]];
  if (kind === 'Put') return { Put: { TableName: input.TableName, Item: floorItem(input.Item as Input) } };
  if (kind === 'Update') return { Update: floorUpdate(input) };
  if (kind === 'Delete') return { Delete: { TableName: input.TableName, Key: floorKey(input.Key as Input) } };
  return {
    ConditionCheck: {
      TableName: input.TableName,
      Key: floorKey(input.Key as Input),
      ConditionExpression: 'attribute_not_exists(#f)',
      ExpressionAttributeNames: { '#f': 'floor_absent' },
    },
  };
}

/**
 * The calls a route's floor makes for the `recorded` calls of the route: reads as they were (the same
 * items, so the same answers), writes of the same kind and size on the floor's own copies of the items,
 * unconditional (a condition that held for the route may not hold again), so that every round can
 * repeat them.
 */
export function floorCalls(recorded: readonly FloorCall[]): FloorCall[] {
  return recorded.map(({ command, input }) => {
    if (command === 'PutCommand')
      return { command, input: { TableName: input.TableName, Item: floorItem(input.Item as Input) } };
    if (command === 'UpdateCommand') return { command, input: floorUpdate(input) };
    if (command === 'DeleteCommand')
      return { command, input: { TableName: input.TableName, Key: floorKey(input.Key as Input) } };
    if (command === 'TransactWriteCommand')
      return { command, input: { TransactItems: (input.TransactItems as Input[]).map(floorTransactItem) } };
    return { command, input };
  });
}
