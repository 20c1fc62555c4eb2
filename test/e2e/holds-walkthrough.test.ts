import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '#test/helpers/contract.ts';
import { type LocalServer, startLocalServer } from '#test/helpers/local-server.ts';
import { runReadmeBlock } from '#test/helpers/readme.ts';

let server: LocalServer;

// Its own server, started as the README says but with 6-second holds, so the lapse takes seconds.
beforeAll(async () => {
  server = await startLocalServer(undefined, { HOLD_MINUTES: '0.1' });
});

afterAll(async () => {
  await server?.stop();
});

describe('e2e: README holds', () => {
  it('holds and confirms one offer, holds another and lets it lapse: EXPIRED, and confirm is 410', async () => {
    const stdout = await runReadmeBlock('holds', server, { HOLD_WAIT_SECONDS: '8' });

    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const [first, confirmed, second, lapsed, late] = answers;
    expect(answers).toHaveLength(5);
    expect(first.data).toMatchObject({ status: 'HELD', version: 1, payment_required_by: expect.any(String) });
    expect(confirmed.data).toMatchObject({
      booking_id: first.data.booking_id,
      status: 'CONFIRMED',
      version: 2,
    });
    expect(second.data).toMatchObject({ status: 'HELD' });
    expect(lapsed.data).toMatchObject({
      booking_id: second.data.booking_id,
      status: 'EXPIRED',
      version: 2,
      updated_at: second.data.payment_required_by,
    });
    expect(late.error.code).toBe('HOLD_EXPIRED');
    assertMatchesContract('/api/flights/booking/create', 201, first);
    assertMatchesContract('/api/flights/booking/confirm', 200, confirmed);
    assertMatchesContract('/api/flights/booking/get', 200, lapsed);
    assertMatchesContract('/api/flights/booking/confirm', 410, late);
  });

  it('says in its banner how long holds last and how often the sweep runs', () => {
    expect(server.output()).toContain(
      'holds:      last 6 s (HOLD_MINUTES), ending 48 hours before departure at the latest',
    );
    expect(server.output()).toContain('sweep:      every 15 s');
  });
});
