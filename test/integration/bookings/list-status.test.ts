import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_READ_BUDGET } from '#shared/bookings/entity/agency-listing.ts';
import {
  BOOKING_STATUSES,
  type BookingRecord,
  newBookingItem,
  readBooking,
} from '#shared/bookings/entity/booking-item.ts';
import { newBookingId } from '#shared/bookings/entity/ids.ts';
import { isoSeconds } from '#shared/clock.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, searchOffers } from '#test/helpers/bookings.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { handler as list } from '#test/helpers/routes/bookings/list.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

type Status = (typeof BOOKING_STATUSES)[number];
const HOUR = 3600_000;

/**
 * `count` bookings of `session`'s agency, one second apart going back from an hour ago, cloned from a
 * real booking with the statuses `statusOf(i)` gives: 'LATE' is a hold stored HELD whose deadline has
 * passed (it answers EXPIRED before the sweep stores it). Answers each one's id and answered status,
 * newest first.
 */
async function seed(session: TestSession, count: number, statusOf: (i: number) => Status | 'LATE') {
  const [offer] = await searchOffers(session, { departure_date: '2027-02-10' });
  const real = await book(session, bookingBody(offer));
  const template = await readBooking(testTable, real.body.data.booking_id);
  if (!template) throw new Error('no template booking');
  const now = Date.now();
  const seeded: { id: string; status: Status }[] = [];
  const items: BookingRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = now - HOUR - i * 1000;
    const stored = statusOf(i);
    const id = newBookingId(at);
    const held = stored === 'HELD' || stored === 'LATE';
    items.push({
      ...template,
      booking_id: id,
      created_at: isoSeconds(at),
      updated_at: isoSeconds(at),
      status: stored === 'LATE' ? 'HELD' : stored,
      ...(held && { payment_required_by: isoSeconds(stored === 'LATE' ? now - 60_000 : now + 24 * HOUR) }),
    });
    seeded.push({ id, status: stored === 'LATE' ? 'EXPIRED' : stored });
  }
  // 25 items a batch (DynamoDB's most), four batches at a time.
  const batches: BookingRecord[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  for (let i = 0; i < batches.length; i += 4)
    await Promise.all(
      batches.slice(i, i + 4).map((batch) =>
        testTable.db.send(
          new BatchWriteCommand({
            RequestItems: {
              [testTable.tableName]: batch.map((record) => ({
                PutRequest: { Item: newBookingItem(testTable.tableName, record).Item },
              })),
            },
          }),
        ),
      ),
    );
  return [{ id: real.body.data.booking_id as string, status: 'CONFIRMED' as Status }, ...seeded];
}

const listPage = (session: TestSession, body: Record<string, unknown>) =>
  invoke(list, { path: '/api/flights/booking/list', body, headers: session.headers });

/** Every page of a listing, following next_cursor to its end. */
async function walk(session: TestSession, body: Record<string, unknown>) {
  const pages: { ids: string[]; statuses: string[]; next: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const answer = await listPage(session, { ...body, ...(cursor && { cursor }) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data: { booking_id: string; status: string }[] = answer.body.data;
    pages.push({
      ids: data.map((b) => b.booking_id),
      statuses: data.map((b) => b.status),
      next: answer.body.meta.next_cursor,
    });
    cursor = answer.body.meta.next_cursor ?? undefined;
    expect(pages.length).toBeLessThan(500);
  } while (cursor);
  return pages;
}

/** A mix with every status, LATE holds included, in no regular order. */
const MIX: readonly (Status | 'LATE')[] = [
  'CONFIRMED',
  'CANCELLED',
  'HELD',
  'LATE',
  'EXPIRED',
  'PENDING',
  'FAILED',
];
const mixed = (i: number) => MIX[(i * 7 + (i % 5) * 3 + Math.floor(i / 11)) % MIX.length] ?? 'CONFIRMED';

let agent: TestSession;
let bookings: { id: string; status: Status }[];

beforeAll(async () => {
  agent = await signIn({ agencyId: `list-status-${Math.random().toString(36).slice(2, 8)}` });
  bookings = await seed(agent, 70, mixed);
});

describe('fn: booking list with status', () => {
  const filters: Status[][] = [
    ['CONFIRMED'],
    ['HELD'],
    ['EXPIRED'],
    ['CANCELLED', 'EXPIRED'],
    ['PENDING', 'FAILED', 'HELD'],
    [...BOOKING_STATUSES],
  ];

  it.each(filters.map((status) => ({ status, name: status.join(', ') })))(
    'walks every booking in $name once, newest first, in full pages but the last',
    async ({ status }) => {
      const expected = bookings.filter((b) => status.includes(b.status)).map((b) => b.id);
      const limits = expected.length <= 30 ? [1, 4, expected.length, 100] : [7, expected.length, 100];
      for (const limit of limits) {
        const pages = await walk(agent, { status, limit });

        expect(
          pages.flatMap((page) => page.ids),
          `limit ${limit}`,
        ).toEqual(expected);
        expect(pages.flatMap((page) => page.statuses).every((s) => status.includes(s as Status))).toBe(true);
        for (const page of pages.slice(0, -1)) expect(page.ids).toHaveLength(limit);
        expect(pages.at(-1)?.next).toBeNull();
        expect(pages.at(-1)?.ids.length).toBeGreaterThan(0);
      }
    },
  );

  it('answers a hold past its deadline as EXPIRED, under EXPIRED and never under HELD', async () => {
    const held = (await walk(agent, { status: ['HELD'], limit: 100 })).flatMap((page) => page.ids);
    const expired = (await walk(agent, { status: ['EXPIRED'], limit: 100 })).flatMap((page) => page.ids);
    const late = bookings.filter((_, i) => i > 0 && mixed(i - 1) === 'LATE').map((b) => b.id);

    expect(late.length).toBeGreaterThan(5);
    expect(expired).toEqual(expect.arrayContaining(late));
    expect(held.filter((id) => late.includes(id))).toEqual([]);
  });

  it('binds a cursor to its filter: another filter, or none, is 400 on cursor; the same set in any order is not', async () => {
    const filtered = (await listPage(agent, { status: ['CANCELLED', 'HELD'], limit: 3 })).body.meta
      .next_cursor;
    const plain = (await listPage(agent, { limit: 3 })).body.meta.next_cursor;

    const answers = [
      await listPage(agent, { status: ['CANCELLED'], cursor: filtered }),
      await listPage(agent, { cursor: filtered }),
      await listPage(agent, { status: ['CANCELLED', 'HELD', 'FAILED'], cursor: filtered }),
      await listPage(agent, { status: ['CONFIRMED'], cursor: plain }),
    ];
    const reordered = await listPage(agent, { status: ['HELD', 'CANCELLED'], limit: 3, cursor: filtered });

    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual(['cursor']);
    }
    expect(reordered.status).toBe(200);
  });

  it('refuses a status list that is empty, too long, repeated or unknown, on its exact path', async () => {
    const cases: [unknown, string][] = [
      [[], 'status'],
      [[...BOOKING_STATUSES, 'CONFIRMED'], 'status'],
      [['HELD', 'HELD'], 'status'],
      [['BOOKED'], 'status.0'],
      [['HELD', 'held'], 'status.1'],
      ['HELD', 'status'],
      [null, 'status'],
      [[{ status: 'HELD' }], 'status.0'],
    ];
    for (const [status, path] of cases) {
      const answer = await listPage(agent, { status });
      expect(answer.status, JSON.stringify(status)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
  });
});

describe('fn: booking list with status, reads bounded', () => {
  it(`reads at most ${LIST_READ_BUDGET} items a page; pages walk a rare status to the end all the same`, async () => {
    const rare = await signIn({ agencyId: `list-rare-${Math.random().toString(36).slice(2, 8)}` });
    const total = LIST_READ_BUDGET + 300;
    const made = await seed(rare, total, (i) => (i === 5 || i >= total - 2 ? 'FAILED' : 'CONFIRMED'));
    const failed = made.filter((b) => b.status === 'FAILED').map((b) => b.id);
    const recorded = recordDynamoCalls(context.db, 'listCalls');

    let pages: Awaited<ReturnType<typeof walk>>;
    try {
      pages = await walk(rare, { status: ['FAILED'], limit: 2 });
    } finally {
      recorded.stop();
    }

    expect(pages.flatMap((page) => page.ids)).toEqual(failed);
    expect(pages.at(-1)?.next).toBeNull();
    // The first page holds the newest FAILED booking and stops at the read budget with a cursor.
    expect(pages[0]?.ids).toEqual([failed[0]]);
    expect(pages[0]?.next).toEqual(expect.any(String));
    expect(pages).toHaveLength(2);
    const queries = recorded.calls.filter((call) => call === 'QueryCommand').length;
    expect(queries).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(LIST_READ_BUDGET / 3)) + 2);
    // It writes 1,300 bookings first: 12 s of the project's 20 beside one busy core, over 20 s at load
    // 10-15 (a loaded run), so its own timeout is sized for the loaded machine.
  }, 90_000);

  it('answers an unfiltered page with one Query, as before', async () => {
    const recorded = recordDynamoCalls(context.db, 'plainCalls');
    try {
      await listPage(agent, { limit: 20 });
    } finally {
      recorded.stop();
    }
    expect(recorded.calls.filter((call) => call === 'QueryCommand')).toHaveLength(1);
  });
});
