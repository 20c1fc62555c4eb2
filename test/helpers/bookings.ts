import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { agencyPartition } from '#shared/db/table.ts';
import { inventoryKey } from '#shared/flights/inventory-item.ts';
import { addDays } from '#shared/flights/local-time.ts';
import { handler as create } from '#test/helpers/routes/bookings/create.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { testTable } from './agents.ts';
import { type Answer, invoke } from './api.ts';
import { freezeClock } from './clock.ts';
import { signIn, type TestSession } from './session.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
export type Json = any;

export interface Party {
  adults?: number;
  children?: number;
  infants?: number;
}

let nextDay = 0;

/**
 * A departure date no other test of this file uses (from 2 December 2026 on), so tests never share a
 * flight-date's inventory. Call it in `beforeEach`.
 */
export function freshTravelDate(): string {
  nextDay += 1;
  return addDays('2026-12-01', nextDay);
}

/** Searches LHR→JFK direct, earliest first, overridden by `body`, and returns the offers. */
export async function searchOffers(
  session: TestSession,
  body: Record<string, unknown> & { departure_date: string },
): Promise<Json[]> {
  const answer = await invoke(search, {
    path: '/api/flights/search',
    headers: session.headers,
    body: { origin: 'LHR', destination: 'JFK', max_connections: 0, sort: 'DEPARTURE', ...body },
  });
  if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** Passengers matching a party, born so that their ages fit their types in December 2026. */
export function passengersFor(party: Party = {}) {
  const make = (pax_type: string, born_on: string, first_name: string) => ({
    title: pax_type === 'ADULT' ? 'ms' : 'miss',
    first_name,
    last_name: 'Lovelace',
    pax_type,
    gender: 'f',
    born_on,
  });
  return [
    ...Array.from({ length: party.adults ?? 1 }, (_, i) => make('ADULT', `198${i}-05-01`, 'Ada')),
    ...Array.from({ length: party.children ?? 0 }, (_, i) => make('CHILD', `201${6 + i}-03-03`, 'Anne')),
    ...Array.from({ length: party.infants ?? 0 }, () => make('INFANT', '2026-01-15', 'Byron')),
  ];
}

/** The create request for `offer`, everything as search quoted it. */
export function bookingBody(offer: Json, party: Party = offer.passengers) {
  return {
    flight_id: offer.id,
    flight_details: offer,
    total_price: offer.total_price,
    currency: offer.currency,
    passengers: passengersFor(party),
    contact: { email: 'Traveller@Example.com', phone: '+447700900123' },
  };
}

/** Books with the real handler. */
export function book(
  session: TestSession,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return invoke(create, {
    path: '/api/flights/booking/create',
    headers: { ...session.headers, ...headers },
    body,
  });
}

/**
 * What every booking test starts from: the clock frozen at 1 December 2026 09:00 UTC, a travel date
 * no other test of the file uses, and a signed-in agent of a fresh agency. Call it in `beforeEach`.
 */
export async function startBookingTest() {
  const advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const date = freshTravelDate();
  const session = await signIn({ agencyId: `agency-${Math.random().toString(36).slice(2, 8)}` });
  return { advance, date, session };
}

/** The inventory item of a flight-date, read consistently; undefined until something sold. */
export async function inventoryItem(flightNumber: string, date: string) {
  const { Item } = await testTable.db.send(
    new GetCommand({
      TableName: testTable.tableName,
      Key: inventoryKey(flightNumber, date),
      ConsistentRead: true,
    }),
  );
  return Item;
}

/** Seats sold in a cabin (`Y`, `W`, `C`, `F`) of a flight-date. */
export async function seatsSold(flightNumber: string, date: string, cabin = 'Y'): Promise<number> {
  return (await inventoryItem(flightNumber, date))?.[`sold_${cabin}`] ?? 0;
}

/** Pretends `seats` are already sold in a cabin of a flight-date. */
export async function sellSeats(flightNumber: string, date: string, seats: number, cabin = 'Y') {
  await testTable.db.send(
    new PutCommand({
      TableName: testTable.tableName,
      Item: { ...inventoryKey(flightNumber, date), [`sold_${cabin}`]: seats },
    }),
  );
}

/** Every booking item of an agency, straight from the table. */
export async function agencyBookings(agencyId: string) {
  const { Items } = await testTable.db.send(
    new QueryCommand({
      TableName: testTable.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :a',
      ExpressionAttributeValues: { ':a': agencyPartition(agencyId) },
    }),
  );
  return Items ?? [];
}

/**
 * The states a hold made at version `held` went through to end as `final`, the stored booking (docs/API.md
 * §4.4): HELD, then CONFIRMED, CANCELLED or EXPIRED, and a confirmed one perhaps CANCELLED after; each
 * state is `<status> v<version>`.
 */
export function holdHistory(held: number, final: { status: string; version: number }): string[] {
  const confirmedFirst = final.status === 'CANCELLED' && final.version === held + 2;
  return [
    `HELD v${held}`,
    ...(confirmedFirst ? [`CONFIRMED v${held + 1}`] : []),
    `${final.status} v${final.version}`,
  ];
}

/**
 * Problems with answers given to confirms, a cancel and reads of one hold racing its deadline, against
 * the booking finally stored (one truth at the deadline, docs/API.md §4.4): every booking answered is a
 * state the stored history holds; the cancel's is the final one; a 410 only for a hold that expired, a
 * 409 NOT_HELD only for one cancelled. `unavailable`: 503s tolerated (none on the built-in network).
 */
export function disagreements(
  held: { version: number },
  final: { status: string; version: number },
  answers: { confirms: Answer[]; cancel: Answer; reads: Answer[] },
  unavailable = false,
): string[] {
  const history = holdHistory(held.version, final);
  const state = (answer: Answer) => `${answer.body.data?.status} v${answer.body.data?.version}`;
  const problems: string[] = [];
  const check = (what: string, answer: Answer, ok: boolean) => {
    if (!ok && !(unavailable && answer.status === 503))
      problems.push(`${what} ${answer.status} ${answer.body.error?.code ?? state(answer)} vs ${history}`);
  };
  for (const confirm of answers.confirms) {
    const code = confirm.body.error?.code;
    check(
      'confirm',
      confirm,
      confirm.status === 200
        ? state(confirm) === history[1] && history[1]?.startsWith('CONFIRMED') === true
        : (code === 'HOLD_EXPIRED' && final.status === 'EXPIRED') ||
            (code === 'NOT_HELD' && final.status === 'CANCELLED'),
    );
  }
  check('cancel', answers.cancel, answers.cancel.status === 200 && state(answers.cancel) === history.at(-1));
  for (const read of answers.reads) check('read', read, read.status === 200 && history.includes(state(read)));
  return problems;
}

/** A hold's routes on one request's clock. */
export interface ClockedHoldRoutes {
  confirm(): Promise<Answer>;
  cancel(): Promise<Answer>;
  get(): Promise<Answer>;
}

/**
 * One round of the race at a hold's deadline: 3 confirms, a cancel and a read sent together, each on a
 * clock of its own that runs in real time (a few ms off the others') and crosses `deadline` somewhere
 * in the first `spreadMs` of the round. Answers what each was told, and how long the round took.
 */
export async function raceTheDeadline(
  deadline: number,
  spreadMs: number,
  routes: (clock: () => number) => ClockedHoldRoutes,
): Promise<{ confirms: Answer[]; cancel: Answer; reads: Answer[]; took: number }> {
  const began = performance.now();
  const flip = began + Math.random() * spreadMs;
  const clock = () => {
    const skew = (Math.random() - 0.5) * 4;
    return () => Math.floor(deadline + performance.now() - flip + skew);
  };
  const [confirms, cancel, read] = await Promise.all([
    Promise.all([routes(clock()).confirm(), routes(clock()).confirm(), routes(clock()).confirm()]),
    routes(clock()).cancel(),
    routes(clock()).get(),
  ]);
  return { confirms, cancel, reads: [read], took: performance.now() - began };
}

/**
 * Races every hold of `held` at its deadline ({@link raceTheDeadline}), five holds at a time, and checks
 * each round's answers against the booking finally stored, and a later read against it too. Answers
 * the disagreements found and how many holds ended in each state.
 */
export async function raceHoldsAtTheirDeadlines(
  held: Json[],
  race: {
    routes: (clock: () => number, booking: Json) => ClockedHoldRoutes;
    /** The booking as stored now. */
    stored: (booking: Json) => Promise<{ status: string; version?: number | undefined } | undefined>;
    /** 503s tolerated (see {@link disagreements}). */
    unavailable?: boolean;
  },
): Promise<{ problems: string[]; outcomes: Map<string, number> }> {
  const problems: string[] = [];
  const outcomes = new Map<string, number>();
  // The deadline falls anywhere inside a round: its length is learnt from the rounds before.
  let spread = 50;
  const round = async (booking: Json) => {
    const deadline = Date.parse(booking.payment_required_by);
    const answers = await raceTheDeadline(deadline, spread, (clock) => race.routes(clock, booking));
    spread = answers.took;
    const final = await race.stored(booking);
    const outcome = { status: final?.status ?? 'none', version: final?.version ?? 0 };
    problems.push(...disagreements(booking, outcome, answers, race.unavailable));
    const after = (await race.routes(() => deadline + 60_000, booking).get()).body.data;
    if (after.status !== outcome.status || after.version !== outcome.version)
      problems.push(`a later read: ${after.status} v${after.version}`);
    const ended = `${outcome.status} v${outcome.version}`;
    outcomes.set(ended, (outcomes.get(ended) ?? 0) + 1);
  };
  for (let first = 0; first < held.length; first += 5)
    await Promise.all(held.slice(first, first + 5).map(round));
  return { problems, outcomes };
}
