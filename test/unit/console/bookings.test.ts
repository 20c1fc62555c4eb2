import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Every request the console's booking calls send, answered 200 with an empty page. The typed client
 * builds its Request from the page-relative address (`/api/…`) as a browser would; outside one, the
 * stubbed Request resolves it against the console's origin.
 */
const sent: { url: string; body: unknown }[] = [];
class PageRequest extends Request {
  constructor(input: string | URL | Request, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, 'http://console') : input, init);
  }
}
vi.stubGlobal('Request', PageRequest);
vi.stubGlobal('fetch', async (request: Request) => {
  sent.push({ url: new URL(request.url).pathname, body: await request.json() });
  return new Response(JSON.stringify({ success: true, data: [], meta: { next_cursor: null } }), {
    headers: { 'Content-Type': 'application/json' },
  });
});
afterAll(() => vi.unstubAllGlobals());

// Imported once fetch is stubbed, and evaluated anew: the typed client takes the global fetch when
// web/src/api.ts is first evaluated, and the unit files share their processes (another console test
// may have evaluated it with the real fetch before this file runs).
vi.resetModules();
const {
  airlineCreditLines,
  cancelBooking,
  firstDeparture,
  isStatus,
  listBookings,
  normalPnr,
  refundDestination,
  refundLines,
  refundSentence,
  routeOf,
} = await import('../../../web/src/bookings.ts');
type Booking = Parameters<typeof routeOf>[0];

const journey = (...legs: [string, string, string][]) => ({
  duration_minutes: 60,
  stops: legs.length - 1,
  segments: legs.map(([origin, destination, departure_at]) => ({
    carrier_code: 'VS',
    carrier_name: 'Virgin Atlantic',
    flight_number: 'VS1',
    origin,
    destination,
    departure_at,
    arrival_at: departure_at,
    duration_minutes: 60,
  })),
});
const bookingOf = (flight: Record<string, unknown>) => ({ flight }) as unknown as Booking;

beforeEach(() => {
  sent.length = 0;
});

describe('console: the booking calls', () => {
  it('lists by status as the contract’s one-status list, and walks pages by cursor', async () => {
    await listBookings({ status: 'HELD' });
    await listBookings({ cursor: 'c1', status: 'HELD' });
    await listBookings({});

    expect(sent).toEqual([
      { url: '/api/flights/booking/list', body: { limit: 20, status: ['HELD'] } },
      { url: '/api/flights/booking/list', body: { limit: 20, cursor: 'c1', status: ['HELD'] } },
      { url: '/api/flights/booking/list', body: { limit: 20 } },
    ]);
  });

  it('sends only the workspace filters given, and sort only for the Holds view', async () => {
    await listBookings({ q: 'Lovelace', departure_from: '2027-01-01', departure_to: '', created_by: 'me' });
    await listBookings({ sort: 'deadline', cursor: 'c2' });

    expect(sent).toEqual([
      {
        url: '/api/flights/booking/list',
        body: { limit: 20, q: 'Lovelace', departure_from: '2027-01-01', created_by: 'me' },
      },
      { url: '/api/flights/booking/list', body: { limit: 20, cursor: 'c2', sort: 'deadline' } },
    ]);
  });

  it('finds a PNR typed in any case and with spaces around it', () => {
    expect(normalPnr(' qxbtrv ')).toBe('QXBTRV');
  });

  it('accepts only the contract’s statuses from the address', () => {
    expect(['HELD', 'CONFIRMED', 'held', 'PAID', null].map(isStatus)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('console: a booking’s route and first departure', () => {
  it('says a one-way, a return and a multi-city journey apart', () => {
    const out = journey(['LHR', 'CDG', '2026-12-01T08:00:00Z'], ['CDG', 'JFK', '2026-12-01T11:00:00Z']);
    const back = journey(['JFK', 'LHR', '2026-12-08T20:00:00Z']);
    const onward = journey(['JFK', 'SFO', '2026-12-05T15:00:00Z']);

    expect(routeOf(bookingOf({ outbound: out }))).toBe('LHR → JFK');
    expect(routeOf(bookingOf({ outbound: out, inbound: back }))).toBe('LHR ⇄ JFK');
    expect(routeOf(bookingOf({ outbound: out, slices: [out, onward] }))).toBe('LHR → JFK → SFO');
    expect(firstDeparture(bookingOf({ outbound: out, inbound: back }))).toBe('2026-12-01T08:00:00Z');
  });
});

describe('console: a refund quote in words', () => {
  const quote = (fields: Record<string, unknown>) =>
    ({ booking_id: 'bkg_1', penalty: null, expires_at: null, ...fields }) as Parameters<
      typeof refundSentence
    >[0];

  it('never says an unknown refund (null) as no refund, and cancels without an expected refund', async () => {
    const said = refundSentence(quote({ refund: null, penalty_unknown: true }));
    expect(said).toContain('The airline has not stated the refund yet');
    expect(said).toContain('You can still cancel');
    expect(said).not.toContain('no refund');
    await cancelBooking('bkg_1', null);
    expect(sent.at(-1)).toEqual({ url: '/api/flights/booking/cancel', body: { booking_id: 'bkg_1' } });
  });

  it('says a refund with its penalty, and a penalty it cannot state as such', async () => {
    const refund = { amount: 80, currency: 'GBP' };
    expect(refundSentence(quote({ refund, penalty: { amount: 20, currency: 'GBP' } }))).toMatch(
      /Refund: .*80.*the fare keeps .*20/,
    );
    expect(refundSentence(quote({ refund, penalty_unknown: true }))).toContain('not stated in this currency');
    expect(refundSentence(quote({ refund: { amount: 0, currency: 'GBP' } }))).toContain('no refund');
    await cancelBooking('bkg_1', refund);
    expect(sent.at(-1)?.body).toEqual({ booking_id: 'bkg_1', refund });
  });

  it('says where the money goes, and when the airline does not say', () => {
    expect(refundDestination(quote({ refund_to: 'balance' }))).toContain('your agency’s account');
    expect(refundDestination(quote({ refund_to: 'card' }))).toContain('card that paid');
    expect(refundDestination(quote({ refund_to: 'voucher' }))).toContain('voucher');
    expect(refundDestination(quote({ refund_to: 'airline_credits' }))).toContain('airline credits');
    expect(refundDestination(quote({ refund_to: 'arc_bsp_cash' }))).toContain('ARC/BSP');
    expect(refundDestination(quote({ refund_to: 'awaiting_payment' }))).toContain('Nothing was paid');
    expect(refundDestination(quote({ refund_to: null }))).toBe(
      'The airline has not said where the refund goes.',
    );
  });

  it('lists each airline credit with its code, value and expiry, or says what is not stated', () => {
    const lines = airlineCreditLines(
      quote({
        airline_credits: [
          { code: 'BA1X2Y', amount: 100, currency: 'GBP', expires_at: '2027-06-01T12:00:00Z' },
          { code: null, amount: 20.5, currency: 'GBP', expires_at: null },
        ],
      }),
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Airline credit: .*100\.00, code BA1X2Y, expires .*2027,? \d{2}:\d{2} [A-Z]/);
    expect(lines[1]).toMatch(
      /^Airline credit: .*20\.50, code to follow from the airline, no expiry stated\.$/,
    );
    expect(airlineCreditLines(quote({ airline_credits: [] }))).toEqual([]);
  });
});

describe('fn: refundLines', () => {
  const cancelled = (fields: Record<string, unknown>) =>
    ({ status: 'CANCELLED', ...fields }) as unknown as Booking;

  it('says an unknown refund (null) as unknown, never as 0, and where it goes when the airline does not say', () => {
    const lines = refundLines(cancelled({ refund: null, refund_to: null, airline_credits: [] }));
    expect(lines).toEqual([
      'Refund: not stated by the airline yet; shown here once known.',
      'The airline has not said where the refund goes.',
    ]);
  });

  it('says the refund given, where it went and each airline credit', () => {
    const lines = refundLines(
      cancelled({
        refund: { amount: 80, currency: 'GBP' },
        refund_to: 'airline_credits',
        airline_credits: [{ code: 'BA1X2Y', amount: 80, currency: 'GBP', expires_at: null }],
      }),
    );
    expect(lines).toEqual([
      'Refunded: £80.00',
      'The refund is given as airline credits.',
      'Airline credit: £80.00, code BA1X2Y, no expiry stated.',
    ]);
  });

  it('says nothing for a booking that was not cancelled', () => {
    expect(refundLines({ status: 'CONFIRMED' } as unknown as Booking)).toEqual([]);
  });
});
