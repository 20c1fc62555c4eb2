import { describe, expect, it } from 'vitest';
import { listPositionOf, readListPosition } from '#shared/bookings/entity/booking-item.ts';
import { requestFingerprint } from '#shared/bookings/entity/idempotency-item.ts';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { flightMismatches } from '#shared/bookings/flight-mismatch.ts';
import { ageOn, createBookingRequest, decimalPlaces, passengerProblems } from '#shared/bookings/request.ts';
import { decodeCursor, encodeCursor } from '#shared/cursor.ts';
import { ValidationError } from '#shared/errors.ts';
import { booking, flight } from '#shared/openapi/examples.ts';
import { respellings } from '#test/helpers/respell.ts';

const adult = { title: 'ms', first_name: 'Ada', last_name: 'Lovelace', gender: 'f' } as const;

describe('bookings: passenger rules', () => {
  const party = { adults: 1, children: 1, infants: 1 };
  const offer = { searched: party, firstDepartureDate: '2026-12-01' };
  const passengers = [
    { ...adult, pax_type: 'ADULT', born_on: '1985-04-01' },
    { ...adult, pax_type: 'CHILD', born_on: '2016-12-01' },
    { ...adult, pax_type: 'INFANT', born_on: '2025-12-02' },
  ] as const;

  it('accepts the searched party with ages that fit on the first departure date', () => {
    expect(passengerProblems([...passengers], offer, '2026-11-23')).toEqual([]);
  });

  it('judges ages on the first departure date, to the day', () => {
    expect(ageOn('2016-12-01', '2026-12-01')).toBe(10);
    expect(ageOn('2024-12-02', '2026-12-01')).toBe(1);
    expect(ageOn('2024-12-01', '2026-12-01')).toBe(2);
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
  });

  it('refuses an infant who turns 2 on the day, a child of 12 and an adult of 11', () => {
    const problems = passengerProblems(
      [
        { ...passengers[0], born_on: '2014-12-02' },
        { ...passengers[1], born_on: '2014-12-01' },
        { ...passengers[2], born_on: '2024-12-01' },
      ],
      offer,
      '2026-11-23',
    );

    expect(problems.map((p) => p.path)).toEqual([
      'passengers.0.born_on',
      'passengers.1.born_on',
      'passengers.2.born_on',
    ]);
  });

  it('refuses counts other than the searched ones, and a birth date today or later', () => {
    const problems = passengerProblems([{ ...passengers[0], born_on: '2026-11-23' }], offer, '2026-11-23');

    expect(problems).toEqual([
      { path: 'passengers', message: expect.stringContaining('1 ADULT, 1 CHILD, 1 INFANT (got 1, 0, 0)') },
      { path: 'passengers.0.born_on', message: 'must be in the past' },
    ]);
  });
});

describe('bookings: passengers without a quote', () => {
  it('still refuses a birth date today or later, and judges nothing that needs the offer', () => {
    const traveller = { title: 'ms', first_name: 'Ada', last_name: 'L', gender: 'f' } as const;
    const problems = passengerProblems(
      [
        { ...traveller, pax_type: 'ADULT', born_on: '2026-11-24' },
        { ...traveller, pax_type: 'INFANT', born_on: '1970-01-01' },
      ],
      undefined,
      '2026-11-23',
    );

    expect(problems).toEqual([{ path: 'passengers.0.born_on', message: 'must be in the past' }]);
  });
});

describe('bookings: money', () => {
  it.each([
    [366, 0],
    [366.4, 1],
    [366.45, 2],
    [366.004, 3],
    [366.000000001, 9],
    [1e-7, 7],
    [1e21, 0],
    [-0, 0],
  ])('%d has %d decimals as JSON writes it', (value, places) => {
    expect(decimalPlaces(value)).toBe(places);
  });
});

describe('bookings: quote comparison', () => {
  const body = createBookingRequest().parse({
    flight_id: flight.id,
    flight_details: flight,
    total_price: flight.total_price,
    currency: flight.currency,
    ...exampleTraveller,
  });

  it('finds nothing to say about the quote sent back as quoted', () => {
    expect(flightMismatches(body, flight)).toEqual([]);
  });

  it('compares departures as instants and prices in cents', () => {
    const segment = flight.outbound.segments[0];
    const same = {
      ...body,
      total_price: Number(flight.total_price.toFixed(2)),
      flight_details: {
        ...body.flight_details,
        outbound: { segments: [{ ...segment, departure_at: segment?.departure_at.replace('Z', '+00:00') }] },
      },
    };

    expect(flightMismatches(same as typeof body, flight)).toEqual([]);
  });

  it('names every differing field with what was quoted and what was received', () => {
    const tampered = {
      ...body,
      currency: 'USD',
      flight_details: {
        ...body.flight_details,
        id: 'off_other',
        outbound: { segments: [{ ...flight.outbound.segments[0], flight_number: 'BA999' }] },
      },
    };

    expect(flightMismatches(tampered as typeof body, flight)).toEqual([
      { path: 'flight_details.id', expected: flight.id, received: 'off_other' },
      { path: 'currency', expected: 'EUR', received: 'USD' },
      {
        path: 'flight_details.outbound.segments.0.flight_number',
        expected: flight.outbound.segments[0]?.flight_number,
        received: 'BA999',
      },
    ]);
  });
});

describe('bookings: idempotency fingerprints', () => {
  it('ignores key order, and differs for any changed value', () => {
    expect(requestFingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(
      requestFingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: 2 }));
    expect(requestFingerprint({ a: [1, 2] })).not.toBe(requestFingerprint({ a: [2, 1] }));
  });
});

describe('bookings: list cursors', () => {
  const position = listPositionOf(booking);

  it('round-trips the position of the last booking returned', () => {
    expect(decodeCursor(encodeCursor(position), readListPosition)).toEqual({
      createdAt: booking.created_at,
      bookingId: booking.booking_id,
    });
  });

  it('refuses every other spelling of a cursor, and text that is not one', () => {
    const cursor = encodeCursor(position);
    const others = [
      ...Object.values(respellings(cursor)),
      encodeCursor('2026-11-24T09:32:05Z#bkg_x'),
      'garbage',
    ];

    for (const other of others) expect(() => decodeCursor(other, readListPosition)).toThrow(ValidationError);
  });

  it('is good only for the filter it was issued with', () => {
    const filtered = encodeCursor(position, 'status=HELD');
    const plain = encodeCursor(position);

    expect(decodeCursor(filtered, readListPosition, 'status=HELD')).toEqual({
      createdAt: booking.created_at,
      bookingId: booking.booking_id,
    });
    expect(() => decodeCursor(filtered, readListPosition, 'status=EXPIRED')).toThrow(ValidationError);
    expect(() => decodeCursor(filtered, readListPosition)).toThrow(ValidationError);
    expect(() => decodeCursor(plain, readListPosition, 'status=HELD')).toThrow(ValidationError);
    expect(() => decodeCursor(encodeCursor(`x|status=HELD`), readListPosition, 'status=HELD')).toThrow(
      ValidationError,
    );
  });
});
