import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invoke } from '#test/helpers/api.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { handler as search } from '#test/helpers/routes/flights/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/** 1 December 2026, 09:00 UTC. */
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);

let session: TestSession;

beforeEach(async () => {
  freezeClock(NOW);
  session = await signIn({ agencyId: 'date-testers' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const searchOn = (departure_date: unknown) =>
  invoke(search, {
    path: '/api/flights/search',
    body: { origin: 'LHR', destination: 'JFK', departure_date, max_connections: 0, limit: 1 },
    headers: session.headers,
  });

/** A real calendar date, judged independently of the code under test: Date must give it back unchanged. */
function isRealDate(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

describe('hostile: dates of the right shape that are not dates', () => {
  it.each([
    '2026-13-01',
    '2027-01-32',
    '2027-00-10',
    '0000-00-00',
    '2027-02-29',
    '2027-04-31',
    '2027-13-01T10:00:00Z',
    '2027-01-32T10:00:00+01:00',
    '2027-01-10T24:00:00Z',
    '2027-01-10T10:60:00Z',
  ])('refuses departure_date %s as a VALIDATION_ERROR on the field', async (date) => {
    const answer = await searchOn(date);

    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([{ path: 'departure_date', message: expect.any(String) }]);
  });

  it('takes 29 February of a leap year as a real date (refused only for being beyond 330 days)', async () => {
    const answer = await searchOn('2027-02-28');
    const leap = await invoke(search, {
      path: '/api/flights/search',
      body: { origin: 'LHR', destination: 'JFK', departure_date: '2028-02-29', max_connections: 0, limit: 1 },
      headers: session.headers,
    });

    expect(answer.status).toBe(200);
    // 2028-02-29 is 455 days ahead: a real date, refused only for being beyond 330 days.
    expect(leap.body.error.details).toEqual([
      { path: 'departure_date', message: expect.stringContaining('330 days') },
    ]);
  });

  it('property: every YYYY-MM-DD-shaped string is either a real date or a 400 on departure_date, never a 5xx', async () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
    const dateShaped = fc.oneof(
      fc.tuple(digits(4), digits(2), digits(2)).map(([y, m, d]) => `${y}-${m}-${d}`),
      // Near today, so that real dates are also in the bookable window and get a 200.
      fc
        .tuple(
          fc.constantFrom('2026', '2027'),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
        )
        .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
    );

    await fc.assert(
      fc.asyncProperty(dateShaped, async (date) => {
        const answer = await searchOn(date);
        if (!isRealDate(date)) {
          expect(answer.status).toBe(400);
          expect(answer.body.error.details).toEqual([
            { path: 'departure_date', message: expect.any(String) },
          ]);
        } else {
          expect([200, 400]).toContain(answer.status);
          if (answer.status === 400)
            expect(answer.body.error.details[0].message).toMatch(/before today|330 days/);
        }
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});
