import { describe, expect, it } from 'vitest';
import { baggageLine, conditionsText, extrasLines, holdLengthText, priceRow } from '../../../web/src/fare.ts';

describe('fn: conditionsText', () => {
  it('says each condition with its fee, free where the fee is 0, and leaves out what the supplier does not state', () => {
    expect(
      conditionsText({
        refund_before_departure: { allowed: true, penalty: { amount: 50, currency: 'EUR' } },
        change_before_departure: { allowed: true, penalty: { amount: 0, currency: 'EUR' } },
      }),
    ).toEqual([
      { text: 'Refundable (fee €50.00)', good: true },
      { text: 'Changes allowed (free)', good: true },
    ]);
    expect(
      conditionsText({
        refund_before_departure: { allowed: false, penalty: null },
        change_before_departure: null,
      }),
    ).toEqual([{ text: 'Not refundable', good: false }]);
    expect(conditionsText(undefined)).toEqual([]);
  });
});

describe('fn: priceRow', () => {
  it('writes a passenger type’s base, taxes and total, and a dash where the supplier does not split them', () => {
    expect(priceRow({ pax_type: 'ADULT', count: 2, base: 300, taxes: 112.4, total: 824.8 }, 'EUR')).toEqual({
      service: false,
      who: '2 adults',
      base: '€300.00',
      taxes: '€112.40',
      total: '€824.80',
    });
    expect(priceRow({ pax_type: 'INFANT', count: 1, base: null, taxes: null, total: 20 }, 'GBP')).toEqual({
      service: false,
      who: '1 infant',
      base: '–',
      taxes: '–',
      total: '£20.00',
    });
  });
  it('counts a booking’s bag and seat rows by what was bought, for which passenger type', () => {
    const bags = { pax_type: 'ADULT', count: 2, base: 120, taxes: 0, total: 120, service: 'bags' } as const;
    expect(priceRow(bags, 'EUR')).toMatchObject({
      service: true,
      who: '2 bags for adults',
      total: '€120.00',
    });
    const seat = { pax_type: 'CHILD', count: 1, base: 20, taxes: 0, total: 20, service: 'seats' } as const;
    expect(priceRow(seat, 'EUR')).toMatchObject({
      service: true,
      who: '1 seat for children',
      total: '€20.00',
    });
  });
});

describe('fn: extrasLines', () => {
  const segment = (flight_number: string, origin: string, destination: string) => ({
    carrier_code: 'BA',
    carrier_name: 'British Airways',
    flight_number,
    origin,
    destination,
    departure_at: '2026-12-01T08:00:00Z',
    arrival_at: '2026-12-01T10:00:00Z',
    duration_minutes: 120,
  });
  const journey = (...segments: ReturnType<typeof segment>[]) => ({
    duration_minutes: 240,
    stops: 0,
    segments,
  });
  const out = journey(segment('BA1', 'LHR', 'CDG'), segment('BA2', 'CDG', 'JFK'));
  const back = journey(segment('BA3', 'JFK', 'LHR'));
  const booking = {
    flight: { outbound: out, inbound: back },
    passengers: [
      { seats: [{ segment_index: 2, designator: '12A', price: { amount: 20, currency: 'EUR' } }] },
      {},
    ],
    services: [
      {
        id: 'bag_1_0',
        journey_index: 1,
        passenger_index: 0,
        kind: 'checked',
        weight_kg: 23,
        quantity: 2,
        price: { amount: 60, currency: 'EUR' },
      },
    ],
  } as unknown as Parameters<typeof extrasLines>[0];

  it('says each seat with its flight (by its place in the whole trip) and each bag with its journey', () => {
    expect(extrasLines(booking, 0)).toEqual([
      'Seat 12A on BA3 JFK–LHR, €20.00',
      '2 checked bags of 23 kg, Return, €60.00 each',
    ]);
  });

  it('says nothing for a passenger without seats or bags, and for a booking without services', () => {
    expect(extrasLines(booking, 1)).toEqual([]);
    expect(extrasLines({ ...booking, services: undefined }, 0)).toEqual(['Seat 12A on BA3 JFK–LHR, €20.00']);
  });
});

describe('fn: baggageLine', () => {
  it('says the bags included per passenger type, and none where none are', () => {
    expect(
      baggageLine([
        { pax_type: 'ADULT', carry_on: 1, checked: 2 },
        { pax_type: 'CHILD', carry_on: 1, checked: 1 },
        { pax_type: 'INFANT', carry_on: 0, checked: 0 },
      ]),
    ).toBe('adult: 1 carry-on, 2 checked bags; child: 1 carry-on, 1 checked bag; infant: no bags included');
  });
});

describe('fn: holdLengthText', () => {
  it('writes a hold’s length in hours and minutes', () => {
    expect(holdLengthText(24 * 3600_000)).toBe('24 hours');
    expect(holdLengthText(3600_000)).toBe('1 hour');
    expect(holdLengthText(5.5 * 3600_000 + 59_000)).toBe('5 hours 30 minutes');
  });
});
