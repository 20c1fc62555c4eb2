import { beforeAll, describe, expect, it } from 'vitest';
import { registerTestAgent, uniqueEmail } from '#test/helpers/agents.ts';
import { type Answer, invoke } from '#test/helpers/api.ts';

/**
 * Enumeration by timing: send-otp must not answer measurably faster for an unknown identifier (no
 * delivery) than for a registered one. The function pads every answer to OTP_SEND_MIN_MS; here we
 * measure both distributions through the real handler.
 */
// Well above what the registered path's own work takes on a loaded 2-core machine (p90 300 ms at a
// load of 10, where a floor of 100 ms let it show through); the deployed default is 350 ms.
const FLOOR_MS = 250;
const SAMPLES = 15;
process.env.OTP_SEND_MIN_MS = String(FLOOR_MS);
let sendOtp: typeof import('#test/helpers/routes/auth/send-otp.ts')['handler'];

beforeAll(async () => {
  sendOtp = (await import('#test/helpers/routes/auth/send-otp.ts')).handler;
});

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const summary = (samples: number[]) => {
  const sorted = samples.map((ms) => Math.round(ms * 10) / 10).sort((a, b) => a - b);
  return {
    min: sorted[0] ?? 0,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    max: sorted.at(-1) ?? 0,
  };
};

async function timed(identifier: string): Promise<{ ms: number; answer: Answer }> {
  const started = performance.now();
  const answer = await invoke(sendOtp, { body: { identifier, type: 'EMAIL' } });
  return { ms: performance.now() - started, answer };
}

describe('send-otp timing', () => {
  it('cannot be told apart for registered and unknown identifiers', async ({ annotate }) => {
    const registered = await Promise.all(Array.from({ length: SAMPLES }, () => registerTestAgent()));
    await timed(uniqueEmail('warm-up'));

    const known: number[] = [];
    const unknown: number[] = [];
    for (const agent of registered) {
      const a = await timed(agent.identifier);
      const b = await timed(uniqueEmail('nobody'));
      expect(a.answer.status).toBe(202);
      expect(b.answer.status).toBe(202);
      known.push(a.ms);
      unknown.push(b.ms);
    }

    const k = summary(known);
    const u = summary(unknown);
    const report = `send-otp latency over ${SAMPLES} calls each (ms), floor ${FLOOR_MS}: registered ${JSON.stringify(k)}; unknown ${JSON.stringify(u)}`;
    await annotate(report);
    console.log(report);
    // libuv timers have millisecond granularity and may fire up to a millisecond early.
    expect(k.min).toBeGreaterThanOrEqual(FLOOR_MS - 2);
    expect(u.min).toBeGreaterThanOrEqual(FLOOR_MS - 2);
    expect(Math.abs(k.p50 - u.p50)).toBeLessThan(15);
  }, 30_000); // 31 answers padded to the floor: about 8 s, a third of this
});
