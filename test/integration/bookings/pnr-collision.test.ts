import { beforeEach, describe, expect, it, vi } from 'vitest';
import { newPnr } from '#shared/supply/network-pnr.ts';
import { book, bookingBody, searchOffers, startBookingTest } from '#test/helpers/bookings.ts';
import type { TestSession } from '#test/helpers/session.ts';

/**
 * The PNRs the next draws give, in order; once empty, the real CSPRNG draw. Only the draw is replaced:
 * the PNR item's `attribute_not_exists` condition, the cancelled transaction and the retry with a
 * fresh PNR are production's, against DynamoDB Local.
 */
const draws: string[] = [];
vi.mock('#shared/supply/network-pnr.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('#shared/supply/network-pnr.ts')>();
  return { ...original, newPnr: vi.fn(() => draws.shift() ?? original.newPnr()) };
});

let session: TestSession;
let date: string;
beforeEach(async () => {
  ({ date, session } = await startBookingTest());
  draws.length = 0;
  vi.mocked(newPnr).mockClear();
});

describe('fn: booking create, a PNR already taken', () => {
  it('draws again and books under a fresh PNR, leaving the first booking its own', async () => {
    const [first, second] = await searchOffers(session, { departure_date: date, limit: 2 });
    draws.push('TAKENX');
    const taken = await book(session, bookingBody(first));
    expect(taken.body.data?.pnr).toBe('TAKENX');

    // The next booking draws the same PNR first: its transaction is cancelled on the PNR item alone.
    draws.push('TAKENX', 'FRESHY');
    const answer = await book(session, bookingBody(second));

    expect(answer.status).toBe(201);
    expect(answer.body.data.pnr).toBe('FRESHY');
    expect(vi.mocked(newPnr)).toHaveBeenCalledTimes(3);
    expect(answer.body.data.booking_id).not.toBe(taken.body.data.booking_id);
  });
});
