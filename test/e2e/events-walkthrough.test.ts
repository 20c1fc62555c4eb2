import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '#test/helpers/contract.ts';
import { runReadmeBlock } from '#test/helpers/readme.ts';
import { ownAdmin, sharedServer } from '#test/helpers/shared-server.ts';

// The shared server: the walkthrough's ADMIN is one of an agency of its own in place of the demo agent
// (whose codes are throttled per identifier): the agency's webhooks are the walkthrough's alone, and the
// notices it reads are its booking's.
const server = sharedServer();
const AGENCY = 'events-walkthrough';
let admin: string;

/** A port nothing listens on now, for the README's receiver. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

beforeAll(async () => {
  ({ identifier: admin } = await ownAdmin(server, AGENCY));
});

describe('e2e: README events walkthrough', () => {
  it('an ADMIN registers a receiver, books and cancels: two verified events, two e-mails', async () => {
    process.env.RECEIVER_PORT = String(await freePort());
    const stdout = await runReadmeBlock('events', server, {}, admin);
    delete process.env.RECEIVER_PORT;

    const lines = stdout.trim().split('\n');
    const created = JSON.parse(lines[0] ?? '');
    assertMatchesContract('/api/agency/webhooks/create', 201, created);
    expect(created.data.secret).toMatch(/^whsec_/);

    const verified = lines.filter((line) => line.startsWith('verified '));
    expect(verified).toHaveLength(2);
    const [confirmed, cancelled] = verified.map((line) => line.split(' '));
    expect([confirmed?.[1], confirmed?.[5]]).toEqual(['booking.confirmed', '1']);
    expect([cancelled?.[1], cancelled?.[5]]).toEqual(['booking.cancelled', '2']);
    const bookingId = confirmed?.[3] ?? '';
    expect(cancelled?.[3]).toBe(bookingId);
    expect(confirmed?.[2]).not.toBe(cancelled?.[2]);
    expect(verified.every((line) => line.endsWith('-> 204'))).toBe(true);

    expect(lines.filter((line) => line.startsWith('booking.'))).toEqual([
      expect.stringMatching(
        /^booking\.confirmed to ada@example\.com: Your booking is confirmed: [A-Z]{6} \(events-walkthrough\)$/,
      ),
      expect.stringMatching(
        /^booking\.cancelled to ada@example\.com: Your booking is cancelled: [A-Z]{6} \(events-walkthrough\)$/,
      ),
    ]);
    const notices = (await readFile(join(server.dataDir, 'notices.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      // Every file's bookings on the shared server write here: this walkthrough's one booking's.
      .filter((notice) => notice.booking_id === bookingId);
    expect(notices.map((n) => [n.type, n.booking_id, n.event_id])).toEqual([
      ['booking.confirmed', bookingId, confirmed?.[2]],
      ['booking.cancelled', bookingId, cancelled?.[2]],
    ]);
    // Never in the code outbox.
    expect(await readFile(join(server.dataDir, 'outbox.jsonl'), 'utf8')).not.toContain(bookingId);

    const listed = JSON.parse(lines.at(-2) ?? '');
    assertMatchesContract('/api/agency/webhooks/list', 200, listed);
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].secret).toBeUndefined();
    expect(listed.data[0].last_delivery).toMatchObject({ outcome: 'delivered', http_status: 204 });

    // The walkthrough deletes the endpoint it registered: nothing is left to deliver to.
    const deleted = JSON.parse(lines.at(-1) ?? '');
    assertMatchesContract('/api/agency/webhooks/delete', 200, deleted);
    expect(deleted).toEqual({ success: true, data: {} });
    expect(listed.data[0].id).toBe(created.data.id);
  });
});
