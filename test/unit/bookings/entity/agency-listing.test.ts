import { BatchGetCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_READ_BUDGET, listAgencyBookings } from '#shared/bookings/entity/agency-listing.ts';
import { type BookingRecord, newBookingItem } from '#shared/bookings/entity/booking-item.ts';
import { newHeldItem } from '#shared/bookings/entity/held-item.ts';
import { isoSeconds } from '#shared/clock.ts';
import { booking as example } from '#shared/openapi/examples.ts';

/**
 * booking/list's pages over an in-memory table that answers Query (GSI1, Limit, ExclusiveStartKey,
 * the status FilterExpression) and BatchGetItem as DynamoDB does, counting every item each request
 * reads: pages walk every match once in order, each request stays within LIST_READ_BUDGET, and a page
 * the budget cut short says so.
 */
const AGENCY = 'acme';
const NOW = Date.parse('2026-11-28T10:00:00Z');
const TABLE = 'table';

type Kind = 'CONFIRMED' | 'CANCELLED' | 'HELD' | 'LATE' | 'EXPIRED';
interface Seed {
  kind: Kind;
  lastName: string;
  email: string;
  agent: string;
  day: number;
}

/** The folded form of each last name and e-mail the seeds use: the oracle, spelled out. */
const FOLDED: Record<string, string> = {
  Müller: 'muller',
  MULLER: 'muller',
  'Muller-Smith': 'muller-smith',
  Lovelace: 'lovelace',
  'ADA@Example.com': 'ada@example.com',
  'ada@example.com': 'ada@example.com',
  'bo@example.com': 'bo@example.com',
};

function recordOf(seed: Seed, i: number): BookingRecord {
  const { total_price, ...answered } = example;
  const created = NOW - 3600_000 - i * 1000;
  const id = `bkg_01KAQZ3V5D8YB2C6N0PQRS${String(i).padStart(4, '0')}`;
  const departure = `2027-01-${String(10 + seed.day).padStart(2, '0')}T12:00:00Z`;
  const [segment] = example.flight.outbound.segments;
  const held = seed.kind === 'HELD' || seed.kind === 'LATE';
  return {
    ...answered,
    booking_id: id,
    pnr: `PNR${String(i).padStart(3, '0')}`.slice(0, 6),
    status: seed.kind === 'LATE' ? 'HELD' : seed.kind,
    created_at: isoSeconds(created),
    flight: {
      ...example.flight,
      outbound: { ...example.flight.outbound, segments: [{ ...segment, departure_at: departure }] },
    },
    passengers: [{ ...example.passengers[0], last_name: seed.lastName }],
    contact: { ...example.contact, email: seed.email },
    ...(held && {
      // Deadlines in a different order from creation: soonest first is not newest first.
      payment_required_by: isoSeconds(
        seed.kind === 'LATE' ? NOW - 60_000 * (i + 1) : NOW + 60_000 * (((i * 37) % 997) + 1),
      ),
    }),
    total: Math.round(total_price * 100),
    departs_at: Date.parse(departure),
    agency_id: AGENCY,
    agent_id: seed.agent,
    travel_class: 'ECONOMY',
    seats: 1,
    segments: [],
  } as BookingRecord;
}

/** The table's items for `records`: each booking, and a hold's listing entry. */
const itemsOf = (records: BookingRecord[]) =>
  records.flatMap((record) => [
    newBookingItem(TABLE, record).Item as Record<string, unknown>,
    ...(record.status === 'HELD' && record.payment_required_by
      ? [newHeldItem(TABLE, { ...record, payment_required_by: record.payment_required_by }).Item]
      : []),
  ]);

/** A DynamoDB that holds `items`, counting the items each request reads. */
function memoryTable(items: Record<string, unknown>[]) {
  const meter = { read: 0 };
  const byKey = new Map(items.map((item) => [`${item.pk}|${item.sk}`, item]));
  const send = async (command: unknown) => {
    if (command instanceof QueryCommand) {
      const input = command.input;
      const values = input.ExpressionAttributeValues ?? {};
      const partition = values[':agency'] ?? values[':holds'];
      const sorted = items
        .filter((item) => item.gsi1pk === partition)
        .sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)));
      if (input.ScanIndexForward === false) sorted.reverse();
      const start = input.ExclusiveStartKey?.gsi1sk;
      const after = values[':after'];
      const candidates = sorted.filter((item) =>
        start !== undefined
          ? input.ScanIndexForward === false
            ? String(item.gsi1sk) < start
            : String(item.gsi1sk) > start
          : after === undefined || String(item.gsi1sk) > after,
      );
      const limit = input.Limit ?? Infinity;
      expect(limit).toBeGreaterThan(0);
      const evaluated = candidates.slice(0, limit);
      meter.read += evaluated.length;
      const statuses = Object.entries(values)
        .filter(([name]) => name.startsWith(':s'))
        .map(([, value]) => value);
      const last = evaluated.at(-1);
      return {
        Items: evaluated.filter((item) => statuses.length === 0 || statuses.includes(item.status)),
        // As DynamoDB does: a key whenever the Limit was reached, even if nothing follows.
        ...(last &&
          evaluated.length === limit && {
            LastEvaluatedKey: { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk },
          }),
      };
    }
    if (command instanceof BatchGetCommand) {
      const keys = command.input.RequestItems?.[TABLE]?.Keys ?? [];
      meter.read += keys.length;
      return { Responses: { [TABLE]: keys.flatMap((key) => byKey.get(`${key.pk}|${key.sk}`) ?? []) } };
    }
    throw new Error('unexpected command');
  };
  return { store: { db: { send } as unknown as DynamoDBDocumentClient, tableName: TABLE }, meter };
}

type Request = Omit<Parameters<typeof listAgencyBookings>[2], 'after' | 'now'>;

/** The bookings `request` lists, by the contract's rules, worked out independently of the listing. */
function expected(records: BookingRecord[], request: Request): string[] {
  const shown = (r: BookingRecord) =>
    r.status === 'HELD' && (r.payment_required_by ?? '') <= isoSeconds(NOW) ? 'EXPIRED' : r.status;
  const { filter = {}, statuses } = request;
  const kept = records.filter((r) => {
    const status = shown(r);
    if (request.sort === 'deadline' ? status !== 'HELD' : false) return false;
    if (statuses && !statuses.includes(status)) return false;
    if (filter.agentId && r.agent_id !== filter.agentId) return false;
    const date = r.flight.outbound.segments[0]?.departure_at.slice(0, 10) ?? '';
    if (filter.departureFrom && date < filter.departureFrom) return false;
    if (filter.departureTo && date > filter.departureTo) return false;
    const q = filter.q;
    return (
      !q ||
      r.pnr?.toLowerCase() === q ||
      FOLDED[r.contact.email] === q ||
      r.passengers.some((p) => FOLDED[p.last_name] === q)
    );
  });
  if (request.sort === 'deadline')
    kept.sort((a, b) =>
      `${a.payment_required_by}#${a.booking_id}`.localeCompare(`${b.payment_required_by}#${b.booking_id}`),
    );
  return kept.map((r) => r.booking_id);
}

/** Every page of `request`, following `next` to the end; the items each page read. */
async function walk(records: BookingRecord[], request: Request) {
  const { store, meter } = memoryTable(itemsOf(records));
  const pages: { ids: string[]; partial: boolean; next: string | undefined; read: number }[] = [];
  let after: string | undefined;
  do {
    meter.read = 0;
    const page = await listAgencyBookings(store, AGENCY, { ...request, after, now: NOW });
    pages.push({
      ids: page.bookings.map((b) => b.booking_id),
      partial: page.partial,
      next: page.next,
      read: meter.read,
    });
    after = page.next;
  } while (after !== undefined && pages.length < 5000);
  return pages;
}

const seedArb = fc.record({
  kind: fc.constantFrom<Kind>('CONFIRMED', 'CANCELLED', 'HELD', 'LATE', 'EXPIRED'),
  lastName: fc.constantFrom('Müller', 'MULLER', 'Muller-Smith', 'Lovelace'),
  email: fc.constantFrom('ADA@Example.com', 'ada@example.com', 'bo@example.com'),
  agent: fc.constantFrom('agt_me', 'agt_other'),
  day: fc.integer({ min: 0, max: 5 }),
});
const dayArb = fc.option(
  fc.integer({ min: 0, max: 5 }).map((d) => `2027-01-${10 + d}`),
  { nil: undefined },
);
const requestArb = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  sort: fc.constantFrom<'created' | 'deadline'>('created', 'deadline'),
  statuses: fc.option(fc.subarray(['CONFIRMED', 'CANCELLED', 'HELD', 'EXPIRED'] as const, { minLength: 1 }), {
    nil: undefined,
  }),
  filter: fc.record({
    q: fc.option(fc.constantFrom('muller', 'muller-smith', 'ada@example.com', 'bo@example.com', 'pnr003'), {
      nil: undefined,
    }),
    departureFrom: dayArb,
    departureTo: dayArb,
    agentId: fc.option(fc.constant('agt_me'), { nil: undefined }),
  }),
});

describe('fn: listAgencyBookings', () => {
  it('walks every booking that passes the filters once, in the sort’s order, in full pages but the last', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(seedArb, { maxLength: 60 }), requestArb, async (seeds, request) => {
        const records = seeds.map(recordOf);
        const pages = await walk(records, request);

        expect(pages.flatMap((page) => page.ids)).toEqual(expected(records, request));
        for (const page of pages.slice(0, -1)) expect(page.ids).toHaveLength(request.limit);
        expect(pages.at(-1)?.next).toBeUndefined();
        expect(pages.every((page) => !page.partial && page.read <= LIST_READ_BUDGET)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it.each(['created', 'deadline'] as const)(
    'stops a %s page at the read budget, says it is partial, and goes on from there to every match',
    async (sort) => {
      const total = 1_500;
      // One match among many, deep in the listing (by creation and by deadline alike).
      const seeds: Seed[] = Array.from({ length: total }, (_, i) => ({
        kind: 'HELD',
        lastName: i === 1_234 ? 'Lovelace' : 'Müller',
        email: 'bo@example.com',
        agent: 'agt_me',
        day: 0,
      }));
      const records = seeds.map(recordOf);
      const request: Request = { limit: 5, sort, filter: { q: 'lovelace' } };

      const pages = await walk(records, request);

      expect(pages.flatMap((page) => page.ids)).toEqual(expected(records, request));
      expect(pages.flatMap((page) => page.ids)).toHaveLength(1);
      expect(pages[0]?.partial).toBe(true);
      expect(pages[0]?.next).toEqual(expect.any(String));
      expect(pages.some((page) => page.partial && page.ids.length < request.limit)).toBe(true);
      for (const page of pages) expect(page.read).toBeLessThanOrEqual(LIST_READ_BUDGET);
      expect(pages.at(-1)?.partial).toBe(false);
      expect(pages.at(-1)?.next).toBeUndefined();
    },
  );

  it('reads one Query of limit + 1 entries for an unfiltered page', async () => {
    const records = Array.from({ length: 50 }, (_, i) =>
      recordOf(
        { kind: 'CONFIRMED', lastName: 'Lovelace', email: 'bo@example.com', agent: 'agt_me', day: 0 },
        i,
      ),
    );
    const { store, meter } = memoryTable(itemsOf(records));
    const page = await listAgencyBookings(store, AGENCY, { limit: 10, after: undefined, now: NOW });
    expect(page.bookings).toHaveLength(10);
    expect(meter.read).toBe(11);
  });
});
