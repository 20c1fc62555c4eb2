import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { book, bookingBody, freshTravelDate, searchOffers } from '#test/helpers/bookings.ts';
import { readNotices, startTestPipeline } from '#test/helpers/events.ts';
import { signIn } from '#test/helpers/session.ts';
import { until } from '#test/helpers/webhook-receiver.ts';

/**
 * The local pipeline asks the stream often while records come or the service writes, and at a quiet
 * pace once nothing has come for a while: an idle `npm start` no longer keeps a share of a core busy.
 * A nudge (the dev server's, after each request that may write) ends any pause at once, and one that
 * comes during a poll asks again as soon as that poll ends.
 */
/** Resolves once the pipeline has asked nothing for a second (ten polls at the busy pace). */
async function quietPause(pipeline: { polls(): number }) {
  for (;;) {
    const before = pipeline.polls();
    await sleep(1000);
    if (before > 0 && pipeline.polls() === before) return;
  }
}

/** Books an offer for a new agency's admin, with no poll in between, then nudges and waits for its notice. */
async function bookNudgeAndNotice(pipeline: { polls(): number; nudge(): void }) {
  const admin = await signIn({ agencyId: `pace-${Math.random().toString(36).slice(2, 8)}`, role: 'ADMIN' });
  const polled = pipeline.polls();
  const offers = await searchOffers(admin, { departure_date: freshTravelDate() });
  const answer = await book(admin, bookingBody(offers[0]));
  expect(answer.status).toBe(201);
  expect(pipeline.polls()).toBe(polled);

  pipeline.nudge();
  await until('the booking noticed', async () =>
    (await readNotices()).some((notice) => notice.booking_id === answer.body.data.booking_id),
  );
}

type Pipeline = Awaited<ReturnType<typeof startTestPipeline>>;

/** Runs `steps` with a pipeline at `pace`, stopped however they end. */
async function withPipeline(
  pace: NonNullable<Parameters<typeof startTestPipeline>[0]>['pace'],
  steps: (p: Pipeline) => Promise<void>,
) {
  const pipeline = await startTestPipeline({ pace });
  try {
    await steps(pipeline);
  } finally {
    await pipeline.stop();
  }
}

/** Busy for ten minutes, a poll every ten minutes: after the first poll, only a nudge asks again. */
const TEN_MINUTES_BUSY = { busyPollMs: 600_000, awakeForMs: 600_000, quietPollMs: 600_000 };

describe('event pipeline pace', () => {
  it('asks the stream at most once a quiet interval after a quiet spell', () =>
    withPipeline({ awakeForMs: 100, quietPollMs: 500 }, async (pipeline) => {
      await sleep(800);
      const before = pipeline.polls();
      await sleep(2000);
      // Four at the quiet pace (one more for a poll under way); twenty at the busy one.
      expect(pipeline.polls() - before).toBeLessThanOrEqual(5);
    }));

  it('reads what was written as soon as it is nudged, however long the quiet pause', () =>
    // A quiet pause of ten minutes: only the nudge can bring the record in within the test.
    withPipeline({ awakeForMs: 200, quietPollMs: 600_000 }, async (pipeline) => {
      await quietPause(pipeline);
      await bookNudgeAndNotice(pipeline);
    }));

  it('reads what was written as soon as it is nudged during a busy pause too', () =>
    withPipeline(TEN_MINUTES_BUSY, async (pipeline) => {
      await until('the first poll', async () => pipeline.polls() > 0);
      await bookNudgeAndNotice(pipeline);
    }));

  it('asks again at once when nudged while a poll is under way', () =>
    withPipeline(TEN_MINUTES_BUSY, async (pipeline) => {
      // A poll is counted as it ends, and its pause has begun by then (events-pipeline.ts).
      await until('the first poll', async () => pipeline.polls() > 0);
      const before = pipeline.polls();
      // The first nudge ends the pause; the second comes before the poll it starts can end.
      pipeline.nudge();
      pipeline.nudge();
      await until('two more polls', async () => pipeline.polls() >= before + 2);
      await sleep(500);
      expect(pipeline.polls()).toBe(before + 2);
    }));
});
