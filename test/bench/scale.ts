/**
 * P5 scale: is search as fast against a 100k-item table as against a 1k-item one (p50 and p99 within
 * {@link SCALE_GOAL}×)? Built so that it can fail:
 *
 * - Searches read items that exist. Trips on {@link PAIRS} (short-haul direct routes, long-haul routes
 *   with one-stop connections), each with its own outbound date 2–60 days ahead and a return 1–9 days
 *   later, are asked as one-way out, one-way back and round trip. Every flight-date those searches price
 *   (computed with the handler's own selection) gets an inventory item with sold seats per cabin, so
 *   prices and availability come from stored items. An SDK middleware counts the keys BatchGetItem asks
 *   for and the items it returns, and every table must give the same answer to the same query.
 * - That working set is the same in every table and capped at {@link WORKING_SET_LIMIT} items, so the
 *   1k tables hold all of it; the rest of each table is filler.
 * - Two shapes, each at 1k and 100k. A: the filler is on other partitions (bookings with their GSI keys,
 *   PNRs, inventory of dates nobody searches). B: it is on the searched partitions. Search reads
 *   `FLIGHT#<number>#<date>` / `INVENTORY`, one item per partition key, so B stores the filler under
 *   those same partition keys with other sort keys (`HOLD#…` sorts before `INVENTORY`, `SEAT#…` after),
 *   making every searched item collection big (about 110 items each at 100k).
 * - Interleaved: the four tables share one DynamoDB Local and one client, and each query of one seeded
 *   random sequence is asked of all four back to back, in an order shuffled anew for every query.
 * - A noise row compares the two 1k tables (equal but for 100 filler items): what "equal" measures as.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/local/bootstrap.ts';
import { registerAgent } from '../../shared/agency/agent-changes.ts';
import { issueSessionToken } from '../../shared/auth/session-token.ts';
import { bookingKey } from '../../shared/bookings/entity/booking-item.ts';
import { pnrKey } from '../../shared/bookings/entity/pnr-item.ts';
import type { AppContext } from '../../shared/context.ts';
import { createDocumentClient } from '../../shared/db/client.ts';
import { agencyPartition } from '../../shared/db/table.ts';
import type { TravelClass } from '../../shared/flights/cabins.ts';
import { BATCH_GET_LIMIT, inventoryKey, soldAttribute } from '../../shared/flights/inventory-item.ts';
import { findItineraries, MIN_LEAD_MINUTES } from '../../shared/flights/itineraries.ts';
import { addDays, daysBetween } from '../../shared/flights/local-time.ts';
import { selectForPricing } from '../../shared/flights/ranking.ts';
import type { ScheduledFlight } from '../../shared/flights/schedule.ts';
import { route } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import { type SupplierContext, withSupplier } from '../helpers/supplier-context.ts';
import { median, percentile, ratio, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const SCALE_GOAL = 1.1;
const PAIRS = ['LHR-JFK', 'CDG-JFK', 'LHR-CDG', 'MAD-BCN', 'FRA-MUC', 'CPH-HEL', 'LIS-EWR', 'JFK-ORD']
  .concat(['SEA-SFO', 'FCO-ZRH', 'BOM-DXB', 'CPH-FRA', 'ICN-TPE', 'EZE-GRU'])
  .map((pair) => pair.split('-') as [string, string]);
const WORKING_SET_LIMIT = 900;
const SIZES = [1_000, 100_000] as const;
const AGENT = {
  identifier: 'scale@example.com',
  type: 'EMAIL',
  name: 'Scale Agent',
  agencyId: 'scale',
} as const;
const AGENT_ITEMS = 3; // its profile, sign-in snapshot and session state
const WARMUP_ROUNDS = 30;
const SEED = 20_260_101;
const DETAIL = 'x'.repeat(160); // so filler items weigh about what bookings do

type Item = Record<string, unknown>;
type Query = { origin: string; destination: string; departure_date: string; return_date?: string };
type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;
type Shape = 'A' | 'B';
interface Variant {
  shape: Shape;
  size: number;
  tableName: string;
  handler: Handler;
  headers: Record<string, string>;
  seedSeconds: number;
  samples: number[];
  reads: { asked: number; found: number };
}
const lambdaContext = { awsRequestId: 'scale', functionName: 'scale', getRemainingTimeInMillis: () => 1e4 };

/** mulberry32: the same trips, sold seats and order on every run. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The flights a search prices, selected as the handler does (defaults: 1 adult, ECONOMY, PRICE). */
function pricedFlights(query: Query, now: number): ScheduledFlight[] {
  const options = { maxConnections: 1 as const, earliestDeparture: now + MIN_LEAD_MINUTES * 60_000 };
  // A journey of a round trip is priced from one BatchGetItem's flight-dates at most (shared/flights/search.ts).
  const perDirection = query.return_date ? BATCH_GET_LIMIT : undefined;
  const pax = { adults: 1, children: 0, infants: 0 };
  const direction = (from: string, to: string, date: string) =>
    selectForPricing(
      findItineraries(from, to, date, options),
      'PRICE',
      'ECONOMY',
      pax,
      perDirection,
    ).itineraries.flat();
  const { origin, destination, departure_date: out, return_date: back } = query;
  return [...direction(origin, destination, out), ...(back ? direction(destination, origin, back) : [])];
}

/** Trips, round-robin over the pairs, while the flight-dates they price fit {@link WORKING_SET_LIMIT}. */
function buildQueries(today: string, now: number, rand: () => number) {
  const workingSet = new Map<string, ScheduledFlight>();
  const queries: Query[] = [];
  const open = new Set(PAIRS);
  while (open.size > 0)
    for (const pair of [...open]) {
      const [origin, destination] = pair;
      const departure_date = addDays(today, 2 + Math.floor(rand() * 59));
      const return_date = addDays(departure_date, 1 + Math.floor(rand() * 9));
      const trip: Query[] = [
        { origin, destination, departure_date },
        { origin: destination, destination: origin, departure_date: return_date },
        { origin, destination, departure_date, return_date },
      ];
      const fresh = new Map(
        trip.flatMap((q) => pricedFlights(q, now)).map((f) => [`${f.flightNumber}#${f.date}`, f]),
      );
      for (const key of workingSet.keys()) fresh.delete(key);
      if (workingSet.size + fresh.size > WORKING_SET_LIMIT) open.delete(pair);
      else {
        for (const [key, flight] of fresh) workingSet.set(key, flight);
        queries.push(...trip);
      }
    }
  return { queries, workingSet: [...workingSet.values()] };
}

/** Seats sold in every cabin: fuller closer to departure, about one cabin in twelve sold out. */
function inventoryItem(flight: ScheduledFlight, today: string, rand: () => number): Item {
  const item: Item = inventoryKey(flight.flightNumber, flight.date);
  const closeness = 1 - daysBetween(today, flight.date) / 70;
  for (const [travelClass, capacity = 0] of Object.entries(flight.leg.aircraft.seats)) {
    const load = rand() < 0.08 ? 1 : Math.min(1, 0.2 + 0.6 * closeness * rand() + 0.3 * rand());
    item[soldAttribute(travelClass as TravelClass)] = Math.round(load * capacity);
  }
  return item;
}

/** Shape A: bookings (with their agency GSI keys), PNRs, and inventory 70+ days ahead (never searched). */
function fillerElsewhere(count: number, workingSet: readonly ScheduledFlight[], today: string): Item[] {
  const numbers = [...new Set(workingSet.map((f) => f.flightNumber))];
  return Array.from({ length: count }, (_, i) => {
    const id = String(i).padStart(8, '0');
    const j = Math.floor(i / 3);
    const date = addDays(today, 70 + (Math.floor(j / numbers.length) % 260));
    if (i % 3 === 0) return { ...inventoryKey(numbers[j % numbers.length] ?? '', date), sold_Y: j % 150 };
    if (i % 3 === 2) return { ...pnrKey(`P${id}`), booking_id: `bkg_${id}`, agency_id: 'a1', detail: DETAIL };
    const index = { gsi1pk: agencyPartition(`agency-${i % 50}`), gsi1sk: `2026-01-01T00:00:00Z#${id}` };
    return { ...bookingKey(`bkg_${id}`), ...index, status: 'CONFIRMED', total: 45_000, detail: DETAIL };
  });
}

/** Shape B: as many items, spread over the searched partition keys, sort keys either side of INVENTORY. */
function fillerOnSearched(count: number, workingSet: readonly ScheduledFlight[]): Item[] {
  return Array.from({ length: count }, (_, i) => {
    const flight = workingSet[i % workingSet.length] as ScheduledFlight;
    const sk = `${i % 2 ? 'SEAT' : 'HOLD'}#${String(i).padStart(8, '0')}`;
    return { pk: inventoryKey(flight.flightNumber, flight.date).pk, sk, status: 'HELD', detail: DETAIL };
  });
}

/** BatchWriteItem, 25 items a call, 16 calls in flight; returns the seconds it took. */
async function seed(db: DynamoDBDocumentClient, tableName: string, items: readonly Item[]) {
  const started = performance.now();
  let next = 0;
  const writer = async () => {
    for (let at = next; at < items.length; at = next) {
      next += 25;
      let pending = items.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const answer = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (answer.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, writer));
  return (performance.now() - started) / 1000;
}

/** Adds the keys asked and items returned of every BatchGetItem `db` sends to `reads.current`. */
function countReads(db: DynamoDBDocumentClient, reads: { current?: Variant['reads'] }) {
  db.middlewareStack.add(
    (next, ctx) => async (args) => {
      const result = await next(args);
      if (ctx.commandName === 'BatchGetItemCommand' && reads.current) {
        const input = args.input as { RequestItems: Record<string, { Keys: unknown[] }> };
        for (const request of Object.values(input.RequestItems)) reads.current.asked += request.Keys.length;
        const output = result.output as { Responses?: Record<string, unknown[]> };
        for (const items of Object.values(output.Responses ?? {})) reads.current.found += items.length;
      }
      return result;
    },
    { step: 'initialize', name: 'scaleReads' },
  );
}

/** A table of `shape` and `size` holding `items`, an agent's token to search it with, and its handler. */
async function prepareVariant(
  context: AppContext,
  shape: Shape,
  size: number,
  items: readonly Item[],
  createHandler: (ctx: SupplierContext) => unknown,
): Promise<Variant> {
  const { db, clock, config } = context;
  const tableName = `scale-${shape}-${size}-${clock.now()}`;
  // No stream: with one, DynamoDB Local took over a quarter of an hour to seed 100,000 items.
  await ensureTable(db, tableName, { stream: false });
  const agent = await registerAgent({ db, tableName }, clock, AGENT);
  const seedSeconds = await seed(db, tableName, items);
  const { token } = await issueSessionToken(agent, context);
  const handler = createHandler(
    await withSupplier({ ...context, tableName, config: { ...config, TABLE_NAME: tableName } }),
  );
  const headers = { Authorization: `Bearer ${token}` };
  const reads = { asked: 0, found: 0 };
  return { shape, size, tableName, handler: handler as Handler, headers, seedSeconds, samples: [], reads };
}

/** What an answer says, without its sealed ids: every table must say the same to the same query. */
function fingerprint(body: string): string {
  const { data } = JSON.parse(body) as { data: { total_price: number; seats_available: number }[] };
  const sum = (pick: (f: (typeof data)[number]) => number) => round(data.reduce((s, f) => s + pick(f), 0));
  return `${data.length}/${sum((f) => f.total_price)}/${sum((f) => f.seats_available)}`;
}

/** Rounds of one query asked of every table, in a shuffled order; fills each variant's samples and reads. */
async function searchInterleaved(
  db: DynamoDBDocumentClient,
  variants: readonly Variant[],
  queries: readonly Query[],
  samples: number,
  rand: () => number,
) {
  const reads: { current?: Variant['reads'] } = {};
  countReads(db, reads);
  for (let turn = -WARMUP_ROUNDS; turn < samples; turn++) {
    const query = queries[Math.floor(rand() * queries.length)];
    let expected: string | undefined;
    for (const { v } of variants.map((v) => ({ v, key: rand() })).sort((a, b) => a.key - b.key)) {
      const event = apiEvent({ path: route('search').path, body: query, headers: v.headers });
      reads.current = turn < 0 ? undefined : v.reads;
      const started = performance.now();
      const result = await v.handler(event, lambdaContext);
      const ms = performance.now() - started;
      if (result.statusCode !== 200) throw new Error(`search: ${result.statusCode} ${result.body}`);
      expected ??= fingerprint(result.body);
      if (fingerprint(result.body) !== expected) throw new Error(`${v.tableName} answered differently`);
      if (turn >= 0) v.samples.push(ms);
    }
  }
  db.middlewareStack.remove('scaleReads');
}

/**
 * Seeds the four tables, searches them interleaved and returns the report section. `bench.context` is
 * the process's (signing keys, clock, log, DynamoDB endpoint); each table gets a copy naming it.
 * `SCALE_SAMPLES` sets the searches per table (1000).
 */
export async function scale(bench: Pick<Bench, 'context' | 'log'>): Promise<Section> {
  const samplesPerVariant = Number(process.env.SCALE_SAMPLES ?? 1000);
  const log = (message: string) => bench.log(`scale: ${message}`);
  bench.log('scale: two table shapes × 1k/100k items, interleaved searches');
  // Imported here: the function module builds the process context when first imported.
  const { createHandler } = await import('../../functions/flights/search.ts');
  const rand = prng(SEED);
  const now = bench.context.clock.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const { queries, workingSet } = buildQueries(today, now, rand);
  const inventory = workingSet.map((flight) => inventoryItem(flight, today, rand));
  const dates = new Set(queries.map((q) => q.departure_date)).size;
  log(`${queries.length} queries on ${dates} dates; working set ${inventory.length} inventory items`);

  const { DYNAMODB_ENDPOINT, AWS_REGION } = bench.context.config;
  const context = { ...bench.context, db: createDocumentClient(DYNAMODB_ENDPOINT, AWS_REGION) };
  const variants: Variant[] = [];
  for (const shape of ['A', 'B'] as const)
    for (const size of SIZES) {
      log(`seeding table ${shape} with ${size} items`);
      const count = size - inventory.length - AGENT_ITEMS;
      const filler =
        shape === 'A' ? fillerElsewhere(count, workingSet, today) : fillerOnSearched(count, workingSet);
      variants.push(await prepareVariant(context, shape, size, [...inventory, ...filler], createHandler));
    }

  log(
    `searching: ${WARMUP_ROUNDS} rounds to warm up, then ${samplesPerVariant}, each round one query × 4 tables`,
  );
  await searchInterleaved(context.db, variants, queries, samplesPerVariant, rand);
  context.db.destroy();
  return report(variants, { queries: queries.length, dates, workingSet: inventory.length });
}

const p50 = (v: Variant) => median(v.samples);
const p99 = (v: Variant) => percentile(v.samples, 99);
const perSearch = (v: Variant, n: number) => round(n / v.samples.length, 1);
const meets = (small: Variant, large: Variant, at: (v: Variant) => number) =>
  verdict(at(large) / at(small) <= SCALE_GOAL);

/** One table's row. */
function figures(v: Variant): (string | number)[] {
  const reads = `${perSearch(v, v.reads.found)} / ${perSearch(v, v.reads.asked)}`;
  const items = v.size.toLocaleString('en');
  return [v.shape, items, round(v.seedSeconds, 1), round(p50(v)), round(p99(v)), reads];
}

/** `v` over `base` at p50 and p99. */
function ratios(label: string, base: Variant, v: Variant): (string | number)[] {
  const sizes = `${v.size / 1000}k ÷ ${base.size / 1000}k`;
  return [label, sizes, '', ratio(p50(v), p50(base)), ratio(p99(v), p99(base)), ''];
}

/** Each table's figures, 100k ÷ 1k per shape, and the noise row (1k B ÷ 1k A); the verdicts. */
function report(variants: readonly Variant[], facts: { queries: number; dates: number; workingSet: number }) {
  const [aSmall, aLarge, bSmall, bLarge] = variants as [Variant, Variant, Variant, Variant];
  const rows = [
    ...[figures(aSmall), figures(aLarge), ratios('A', aSmall, aLarge)],
    ...[figures(bSmall), figures(bLarge), ratios('B', bSmall, bLarge)],
    ratios('noise: B ÷ A', aSmall, bSmall),
  ];
  const verdicts = [
    `A: p50 ${meets(aSmall, aLarge, p50)}, p99 ${meets(aSmall, aLarge, p99)}`,
    `B: p50 ${meets(bSmall, bLarge, p50)}, p99 ${meets(bSmall, bLarge, p99)}`,
  ];
  const header = ['shape', 'items', 'seeded in s', 'p50 ms', 'p99 ms', 'items found / keys asked per search'];
  return {
    title: 'P5 scale',
    lines: [
      `Search through the handler (bearer token, session read, BatchGetItem) against four tables in one DynamoDB Local: two shapes, each with 1k and 100k items. ${facts.queries} queries (one-way out, one-way back, round trip) on ${PAIRS.length} routes, direct and with connections, departing on ${facts.dates} different dates. Every flight-date they price has an inventory item with sold seats per cabin (${facts.workingSet} items, the same in every table, some cabins sold out), so prices and availability come from stored items; the rest of each table is filler. **A**: the filler is on other partitions (bookings with their GSI keys, PNRs, inventory of dates nobody searches). **B**: the filler is on the searched partitions. Search reads one item per partition key (\`FLIGHT#<number>#<date>\` / \`INVENTORY\`), so B stores the filler under those same partition keys with other sort keys, about ${Math.round(SIZES[1] / facts.workingSet)} items per searched partition at 100k.`,
      '',
      `Interleaved: each query of one random sequence (fixed seed) is asked of the four tables back to back, in an order shuffled for every query; ${WARMUP_ROUNDS} queries to warm up, then ${variants[0]?.samples.length} per table. Goal: 100k ≤ ${SCALE_GOAL}× 1k at p50 and at p99. The noise row compares the two 1k tables, equal but for 100 filler items: how far apart equal tables measure in this run; a 100k ÷ 1k ratio no further from 1 than that is within the noise, whichever side of the goal it falls.`,
      '',
      table(header, rows),
      '',
      `${verdicts.join('; ')}.`,
      '',
      'Not measured: network latency to real DynamoDB, nor its storage engine (DynamoDB Local keeps items in SQLite): this shows whether the function’s own work grows with the table.',
    ],
  };
}
