import { describe, expect, it } from 'vitest';
import type { BookingRecord } from '#shared/bookings/entity/booking-item.ts';
import { foldText, matchesFilter } from '#shared/bookings/entity/listing-filter.ts';
import { booking as example } from '#shared/openapi/examples.ts';

/** A stored booking departing from `origin` at `departureAt` (UTC), for `lastName`. */
function departing(origin: string, departureAt: string, lastName = 'Lovelace'): BookingRecord {
  const [segment] = example.flight.outbound.segments;
  return {
    ...example,
    flight: {
      ...example.flight,
      outbound: { ...example.flight.outbound, segments: [{ ...segment, origin, departure_at: departureAt }] },
    },
    passengers: [{ ...example.passengers[0], last_name: lastName }],
    agent_id: 'agt_me',
  } as unknown as BookingRecord;
}

describe('fn: foldText', () => {
  it('ignores case, accents and surrounding or repeated spaces', () => {
    expect(foldText('  Müller ')).toBe('muller');
    expect(foldText('NÚÑEZ')).toBe(foldText('nunez'));
    expect(foldText('Ana  Maria')).toBe('ana maria');
    expect(foldText('Ana.Client@Example.com')).toBe('ana.client@example.com');
  });
});

describe('fn: matchesFilter', () => {
  it('dates the first departure at its airport: 02:00 UTC from New York is the evening before', () => {
    const late = departing('JFK', '2027-01-10T02:00:00Z');
    expect(matchesFilter(late, { departureFrom: '2027-01-09', departureTo: '2027-01-09' })).toBe(true);
    expect(matchesFilter(late, { departureFrom: '2027-01-10' })).toBe(false);
    const london = departing('LHR', '2027-01-10T02:00:00Z');
    expect(matchesFilter(london, { departureTo: '2027-01-10', departureFrom: '2027-01-10' })).toBe(true);
  });

  it('matches a whole last name only, the PNR and the e-mail, each folded', () => {
    const record = departing('LHR', '2027-01-10T09:00:00Z', 'Núñez-Ortega');
    expect(matchesFilter(record, { q: foldText('nunez-ortega') })).toBe(true);
    expect(matchesFilter(record, { q: 'nunez' })).toBe(false);
    expect(matchesFilter(record, { q: foldText(example.pnr) })).toBe(true);
    expect(matchesFilter(record, { q: foldText(example.contact.email.toUpperCase()) })).toBe(true);
    expect(matchesFilter(record, { agentId: 'agt_other' })).toBe(false);
  });
});
