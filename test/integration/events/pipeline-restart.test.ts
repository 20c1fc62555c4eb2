import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { book, bookingBody, freshTravelDate, searchOffers } from '#test/helpers/bookings.ts';
import { dataDir, readNotices, registerReceiver, startTestPipeline } from '#test/helpers/events.ts';
import { signIn } from '#test/helpers/session.ts';
import { type Receiver, startReceiver, until } from '#test/helpers/webhook-receiver.ts';

/**
 * The local pipeline remembers where it stopped in the stream, as Lambda's event source mapping does:
 * a restart goes on after the last record it handled, so an endpoint registered later never receives
 * events of bookings made before it (its own file: the pipeline's position is per DATA_DIR).
 */
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

describe('event pipeline restart', () => {
  it('goes on where it stopped: an endpoint registered after a restart gets only the new booking', async () => {
    const admin = await signIn({
      agencyId: `restart-${Math.random().toString(36).slice(2, 8)}`,
      role: 'ADMIN',
    });
    const date = freshTravelDate();
    const bookOne = async (index: number) => {
      const offers = await searchOffers(admin, { departure_date: date });
      const answer = await book(admin, bookingBody(offers[index]));
      expect(answer.status).toBe(201);
      return answer.body.data.booking_id as string;
    };

    const first = await startTestPipeline();
    const earlier = [await bookOne(0), await bookOne(1)];
    await until('the earlier bookings published', async () => {
      const notified = new Set((await readNotices()).map((n) => n.booking_id));
      return earlier.every((id) => notified.has(id));
    });
    await first.stop();
    const kept = JSON.parse(await readFile(join(dataDir, 'events-stream-position.json'), 'utf8'));
    expect(Object.keys(kept.shards).length).toBeGreaterThan(0);

    const hook = await startReceiver();
    receivers.push(hook);
    await registerReceiver(admin, hook);
    const second = await startTestPipeline();
    try {
      const later = await bookOne(2);
      await until('the new booking delivered', () => hook.deliveries.length >= 1);
      // Every record written so far has been read: nothing older is still coming.
      await until('the new booking noticed', async () =>
        (await readNotices()).some((n) => n.booking_id === later),
      );
      await until('no delivery waiting', () => second.pendingDeliveries() === 0);
      expect(hook.deliveries.map((d) => [d.body.type, d.body.data.booking_id, d.verified])).toEqual([
        ['booking.confirmed', later, true],
      ]);
    } finally {
      await second.stop();
    }
  });
});
