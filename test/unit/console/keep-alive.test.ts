import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SessionAnswer, sessionKeeper } from '../../../web/src/keep-alive.ts';

const MINUTE = 60_000;
const SIGNED_IN = Date.UTC(2026, 11, 1, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** A session answer for a token ending `minutes` from now, with its lifetime in seconds as given. */
const answerEnding = (minutes: number, expiresIn?: number): SessionAnswer => ({
  expires_at: iso(Date.now() + minutes * MINUTE),
  ...(expiresIn !== undefined && { expires_in: expiresIn }),
});

/** A keeper whose calls the test watches: a refresh answers a fresh hour unless told otherwise. */
function keeperWith(refreshAnswer: () => SessionAnswer | undefined = () => answerEnding(60, 3600)) {
  const calls = {
    refresh: vi.fn(async () => refreshAnswer()),
    check: vi.fn(async (): Promise<SessionAnswer | undefined> => undefined),
  };
  return { keeper: sessionKeeper(calls), calls };
}

beforeEach(() => {
  vi.useFakeTimers({ now: SIGNED_IN });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('console: keeping a working agent signed in', () => {
  it('refreshes in the token’s last 15 minutes when the agent has been active since it came', async () => {
    const { keeper, calls } = keeperWith();
    keeper.start(answerEnding(60, 3600));

    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    keeper.activity();
    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    expect(calls.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1 * MINUTE);

    expect(calls.refresh).toHaveBeenCalledTimes(1);
  });

  it('does not refresh an idle tab: it lets the token end and asks the session check then', async () => {
    const { keeper, calls } = keeperWith();
    keeper.start(answerEnding(60, 3600));
    await vi.advanceTimersByTimeAsync(MINUTE);
    // The refresh after the page's first token (loading it counts as activity), then nothing.
    keeper.activity();
    await vi.advanceTimersByTimeAsync(45 * MINUTE);
    expect(calls.refresh).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(3 * 60 * MINUTE);

    expect(calls.refresh).toHaveBeenCalledTimes(1);
    expect(calls.check).toHaveBeenCalledTimes(1);
  });

  it('refreshes at once when an idle agent comes back within the last 15 minutes', async () => {
    const { keeper, calls } = keeperWith();
    keeper.start(answerEnding(60, 3600));
    await vi.advanceTimersByTimeAsync(MINUTE);
    keeper.activity();
    await vi.advanceTimersByTimeAsync(45 * MINUTE); // refreshed: a new hour from here
    await vi.advanceTimersByTimeAsync(50 * MINUTE); // idle past the new token's refresh point

    keeper.activity();
    await vi.advanceTimersByTimeAsync(0);

    expect(calls.refresh).toHaveBeenCalledTimes(2);
  });

  it('stops at the 12-hour end: a token shorter than an hour is the last, never refreshed', async () => {
    const { keeper, calls } = keeperWith();
    keeper.start(answerEnding(40, 40 * 60));

    for (let minute = 0; minute < 39; minute += 1) {
      await vi.advanceTimersByTimeAsync(MINUTE);
      keeper.activity();
    }
    await vi.advanceTimersByTimeAsync(2 * MINUTE);

    expect(calls.refresh).not.toHaveBeenCalled();
    expect(calls.check).toHaveBeenCalledTimes(1);
  });

  it('tries a refresh that got no answer again after 30 seconds, not on every key press', async () => {
    let answer: SessionAnswer | undefined;
    const { keeper, calls } = keeperWith(() => answer);
    keeper.start(answerEnding(60, 3600));
    keeper.activity();
    await vi.advanceTimersByTimeAsync(45 * MINUTE);
    for (let i = 0; i < 10; i += 1) keeper.activity();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.refresh).toHaveBeenCalledTimes(1);

    answer = answerEnding(60, 3600);
    await vi.advanceTimersByTimeAsync(30_000);

    expect(calls.refresh).toHaveBeenCalledTimes(2);
  });

  it('does nothing once stopped (signed out, or the session ended)', async () => {
    const { keeper, calls } = keeperWith();
    keeper.start(answerEnding(60, 3600));
    keeper.stop();

    keeper.activity();
    await vi.advanceTimersByTimeAsync(3 * 60 * MINUTE);

    expect(calls.refresh).not.toHaveBeenCalled();
    expect(calls.check).not.toHaveBeenCalled();
  });
});
